// The URL rules every URL input follows, as a table.
import assert from "node:assert/strict";
import { httpOrigin, httpUrlProblem } from "../../provider/shared/urlRules";

describe("provider URL rules", () => {
    const cases: [string, ReturnType<typeof httpUrlProblem>, ReturnType<typeof httpUrlProblem>, string | undefined][] = [
        // text, as a URL, as an origin, the origin
        ["http://gateway:9600", undefined, undefined, "http://gateway:9600"],
        [" https://gateway/ ", undefined, undefined, "https://gateway"],
        ["https://issuer/oauth/token", undefined, "not an origin", undefined],
        ["http://gateway:9600?x=1", undefined, "not an origin", undefined],
        ["http://gateway:9600#top", undefined, "not an origin", undefined],
        ["ftp://files/x", "not http", "not http", undefined],
        ["https://user:secret@issuer/token", "credentials", "credentials", undefined],
        ["https://user@issuer/token", "credentials", "credentials", undefined],
        ["gateway:9600/path", "not http", "not http", undefined],
        ["/actuator/cluster", "not absolute", "not absolute", undefined],
        ["", "not absolute", "not absolute", undefined],
    ];
    for (const [text, asUrl, asOrigin, origin] of cases) {
        it(`${JSON.stringify(text)}: ${asUrl ?? "a URL"}, ${asOrigin ?? "an origin"}`, () => {
            assert.equal(httpUrlProblem(text), asUrl);
            assert.equal(httpUrlProblem(text, { originOnly: true }), asOrigin);
            assert.equal(httpOrigin(text), origin);
        });
    }
});
