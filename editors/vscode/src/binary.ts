// Finds the `byop` binary: the `byop.path` setting, else the binary bundled in
// the extension's bin/ folder, else `byop` on PATH. No vscode import, so the
// lookup is unit-tested under plain node.
import * as fs from "fs";
import * as os from "os";
import * as path from "path";

export interface BinaryLookup {
  /** Value of the `byop.path` setting ("" when unset). */
  configuredPath: string;
  /** Root folder of the installed extension. */
  extensionPath: string;
  /** The PATH environment variable. */
  envPath: string | undefined;
  platform: NodeJS.Platform;
}

export type BinarySource = "setting" | "bundled" | "PATH";

export type BinaryResult =
  | { ok: true; path: string; source: BinarySource }
  | { ok: false; message: string; fixIsSetting: boolean };

export const INSTALL_HINT =
  "Install it (in the BYOP repository: `cargo install --path .`) so that `byop` is on PATH, " +
  "or set the `byop.path` setting to the full path of the binary.";

export function exeName(platform: NodeJS.Platform): string {
  return platform === "win32" ? "byop.exe" : "byop";
}

export function isExecutableFile(file: string, platform: NodeJS.Platform): boolean {
  try {
    if (!fs.statSync(file).isFile()) return false;
    if (platform !== "win32") fs.accessSync(file, fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** Expands a leading `~` so users can write `~/.cargo/bin/byop`. */
export function expandHome(p: string): string {
  if (p === "~") return os.homedir();
  if (p.startsWith("~/") || p.startsWith("~\\")) return path.join(os.homedir(), p.slice(2));
  return p;
}

export function findByop(lookup: BinaryLookup): BinaryResult {
  const configured = lookup.configuredPath.trim();
  if (configured !== "") {
    const file = expandHome(configured);
    if (!path.isAbsolute(file)) {
      return {
        ok: false,
        fixIsSetting: true,
        message: `The \`byop.path\` setting ("${configured}") must be an absolute path to the byop binary.`,
      };
    }
    if (isExecutableFile(file, lookup.platform)) return { ok: true, path: file, source: "setting" };
    return {
      ok: false,
      fixIsSetting: true,
      message: `The \`byop.path\` setting points to "${file}", which is not an executable file. Fix the setting or clear it to use \`byop\` from PATH.`,
    };
  }

  const exe = exeName(lookup.platform);
  const bundled = path.join(lookup.extensionPath, "bin", exe);
  if (isExecutableFile(bundled, lookup.platform)) return { ok: true, path: bundled, source: "bundled" };

  const sep = lookup.platform === "win32" ? ";" : ":";
  for (const dir of (lookup.envPath ?? "").split(sep)) {
    if (dir === "") continue;
    const candidate = path.join(dir, exe);
    if (isExecutableFile(candidate, lookup.platform)) return { ok: true, path: candidate, source: "PATH" };
  }
  return {
    ok: false,
    fixIsSetting: false,
    message: `Could not find the \`byop\` binary (not set in \`byop.path\`, not bundled, not on PATH). ${INSTALL_HINT}`,
  };
}
