// A Python virtual environment holding the pulumi package (from PyPI, PYTHON_PULUMI_VERSION) and what the
// generated SDK requires besides (parver, semver; setuptools and wheel to install it): what a Python program's requirements install, for the languages
// tier. Made with the machine's python3, reused once made.
import { execFileSync } from "child_process";
import * as fs from "fs";
import * as path from "path";
import { ToolBuildError, progress } from "./goBuild";
import { toolDir } from "./toolsDir";

/** The pulumi package on PyPI the tier runs: the newest release there (PyPI's newest lags the npm package's). */
export const PYTHON_PULUMI_VERSION = "3.272.0";

export async function pythonTools(version: string = PYTHON_PULUMI_VERSION): Promise<string> {
    const dir = toolDir("python-pulumi", `v${version}`);
    const python = path.join(dir, "bin", "python");
    if (installedVersion(python) === version && fs.existsSync(READY(dir))) return dir;
    const started = Date.now();
    progress(`python pulumi ${version}: making a virtual environment in ${dir}`);
    fs.rmSync(dir, { recursive: true, force: true });
    try {
        execFileSync("python3", ["-m", "venv", dir], { stdio: ["ignore", "ignore", "pipe"] });
        execFileSync(
            python,
            ["-m", "pip", "install", "--quiet", "--disable-pip-version-check", `pulumi==${version}`, "parver", "semver", "setuptools", "wheel"],
            { stdio: ["ignore", "ignore", "pipe"] },
        );
    } catch (error) {
        const stderr = String((error as { stderr?: Buffer }).stderr ?? (error as Error).message);
        throw new ToolBuildError(`cannot install pulumi ${version} from PyPI with python3 -m venv and pip: ${stderr.trim().split("\n").slice(-3).join(" ")}`);
    }
    if (installedVersion(python) !== version) throw new ToolBuildError(`python pulumi ${version}: the environment in ${dir} does not import it`);
    fs.writeFileSync(READY(dir), "");
    progress(`python pulumi ${version}: made in ${Math.round((Date.now() - started) / 1000)} s`);
    return dir;
}

/** Written once every package is in: an environment without it was cut short. */
const READY = (dir: string) => path.join(dir, "platform-ready");

function installedVersion(python: string): string | undefined {
    if (!fs.existsSync(python)) return undefined;
    try {
        return execFileSync(python, ["-c", "import importlib.metadata as m; print(m.version('pulumi'))"], { encoding: "utf8" }).trim();
    } catch {
        return undefined;
    }
}
