// Translates the extension's `byop.*` settings into the object the server
// reads under `byop` (README, "Language server"): sent as initializationOptions and in
// workspace/didChangeConfiguration. Empty values mean "server default" and
// are left out so the server's own defaults and byop.toml apply.

export type SettingGetter = (key: string) => unknown;

export interface ServerSettings {
  onSave?: "off" | "deterministic" | "screening" | "full";
  provider?: "anthropic" | "openai";
  model?: string;
  baseUrl?: string;
  runs?: number;
  maxRuns?: number;
  trustWorkspaceEvaluator?: boolean;
  logLevel?: string;
  playbook?: string;
  canary?: boolean;
  locked?: boolean;
  allowedPlaybooks?: string[];
}

const ON_SAVE = ["off", "deterministic", "screening", "full"] as const;
const PROVIDERS = ["anthropic", "openai"] as const;
const LOG_LEVELS = ["error", "warn", "info", "debug", "trace"] as const;

function nonEmptyString(v: unknown): string | undefined {
  return typeof v === "string" && v.trim() !== "" ? v.trim() : undefined;
}

function oneOf<T extends string>(v: unknown, allowed: readonly T[]): T | undefined {
  return typeof v === "string" && (allowed as readonly string[]).includes(v) ? (v as T) : undefined;
}

export function serverSettings(get: SettingGetter): ServerSettings {
  const out: ServerSettings = {};
  const onSave = oneOf(get("onSave"), ON_SAVE); // "auto" → left to the server
  if (onSave) out.onSave = onSave;
  const provider = oneOf(get("provider"), PROVIDERS);
  if (provider) out.provider = provider;
  const model = nonEmptyString(get("model"));
  if (model) out.model = model;
  const baseUrl = nonEmptyString(get("baseUrl"));
  if (baseUrl) out.baseUrl = baseUrl;
  const runs = get("runs");
  if (typeof runs === "number" && Number.isInteger(runs) && runs >= 1) out.runs = runs;
  const maxRuns = get("maxRuns");
  if (typeof maxRuns === "number" && Number.isInteger(maxRuns) && maxRuns >= 2) out.maxRuns = maxRuns;
  const trust = get("trustWorkspaceEvaluator");
  if (typeof trust === "boolean") out.trustWorkspaceEvaluator = trust;
  const logLevel = oneOf(get("logLevel"), LOG_LEVELS);
  if (logLevel) out.logLevel = logLevel;
  const playbook = nonEmptyString(get("playbook"));
  if (playbook) out.playbook = playbook;
  for (const key of ["canary", "locked"] as const) {
    const v = get(key);
    if (typeof v === "boolean") out[key] = v;
  }
  const allowed = get("allowedPlaybooks");
  if (Array.isArray(allowed)) {
    const paths = allowed.map(nonEmptyString).filter((p): p is string => p !== undefined);
    if (paths.length > 0) out.allowedPlaybooks = paths;
  }
  return out;
}
