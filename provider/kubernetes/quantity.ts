// Kubernetes quantities ("1Gi", "1024Mi", "2G", "1.5e9"): the API server gives them back in its own canonical form, so
// a declared "1024Mi" and a live "1Gi" are the same size.
const SUFFIXES: Record<string, number> = {
    "": 1,
    n: 1e-9,
    u: 1e-6,
    m: 1e-3,
    k: 1e3,
    M: 1e6,
    G: 1e9,
    T: 1e12,
    P: 1e15,
    E: 1e18,
    Ki: 2 ** 10,
    Mi: 2 ** 20,
    Gi: 2 ** 30,
    Ti: 2 ** 40,
    Pi: 2 ** 50,
    Ei: 2 ** 60,
};
const QUANTITY = /^([+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)(Ki|Mi|Gi|Ti|Pi|Ei|[numkMGTPE])?$/;

/** The quantity's value, or undefined when it is not one. */
export function quantityValue(text: string): number | undefined {
    const match = QUANTITY.exec(text.trim());
    if (match === null) return undefined;
    return Number(match[1]) * SUFFIXES[match[2] ?? ""]!;
}

/** Whether two quantities are the same amount (the same text when either is not a quantity). */
export function sameQuantity(a: string, b: string): boolean {
    const [x, y] = [quantityValue(a), quantityValue(b)];
    if (x === undefined || y === undefined) return a.trim() === b.trim();
    return Math.abs(x - y) <= Math.max(Math.abs(x), Math.abs(y)) * 1e-12;
}
