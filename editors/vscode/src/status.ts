// What the status bar shows for a `byop/status` notification. Pure, so it is
// unit-tested without VS Code; extension.ts applies it to a StatusBarItem.

export const VARIANCE_NOTE =
  "Variance in results may reflect evaluator model behavior, not only the AI output being tested. " +
  "BYOP reports describe observable signals, not ground truth.";

export type ByopStatus = "ALERT" | "REVIEW" | "OBSERVE" | "STABLE" | "RUNNING" | "NONE";

/** Params of the server's `byop/status` notification (README, "Language server"). */
export interface StatusParams {
  uri: string;
  status: ByopStatus;
  consistency_score?: number;
  mode?: string;
  message?: string;
}

export interface StatusPresentation {
  text: string;
  /** Theme color id for the item's background, undefined = default. */
  background?: string;
  /** Markdown tooltip. */
  tooltip: string;
}

const STATUSES: readonly ByopStatus[] = ["ALERT", "REVIEW", "OBSERVE", "STABLE", "RUNNING", "NONE"];

/** Validates an incoming notification; anything malformed is ignored by the caller. */
export function parseStatusParams(raw: unknown): StatusParams | undefined {
  if (typeof raw !== "object" || raw === null) return undefined;
  const r = raw as Record<string, unknown>;
  if (typeof r.uri !== "string" || typeof r.status !== "string") return undefined;
  if (!(STATUSES as readonly string[]).includes(r.status)) return undefined;
  return {
    uri: r.uri,
    status: r.status as ByopStatus,
    consistency_score: typeof r.consistency_score === "number" ? r.consistency_score : undefined,
    mode: typeof r.mode === "string" ? r.mode : undefined,
    message: typeof r.message === "string" ? r.message : undefined,
  };
}

// Only error/warning backgrounds are honoured by current VS Code for status
// bar items; OBSERVE's prominent background is set for themes/versions that
// honour it and the eye icon keeps it distinguishable either way.
const LOOK: Record<ByopStatus, { icon: string; background?: string; meaning: string }> = {
  ALERT: { icon: "$(error)", background: "statusBarItem.errorBackground", meaning: "a high-severity check failed" },
  REVIEW: { icon: "$(warning)", background: "statusBarItem.warningBackground", meaning: "a check failed or could not be decided" },
  OBSERVE: { icon: "$(eye)", background: "statusBarItem.prominentBackground", meaning: "results varied or need a look" },
  STABLE: { icon: "$(pass)", meaning: "every check passed consistently" },
  RUNNING: { icon: "$(sync~spin)", meaning: "evaluation in progress" },
  NONE: { icon: "$(circle-outline)", meaning: "no report for this content yet" },
};

export function presentStatus(p: StatusParams | undefined): StatusPresentation {
  const status: ByopStatus = p?.status ?? "NONE";
  const look = LOOK[status];
  const lines = [`**BYOP: ${status}** — ${look.meaning}`, ""];
  if (p?.consistency_score !== undefined) lines.push(`Consistency score: ${p.consistency_score.toFixed(2)}  `);
  if (p?.mode) lines.push(`Mode: ${p.mode}  `);
  if (p?.message) lines.push(`${p.message}  `);
  lines.push("", `_${VARIANCE_NOTE}_`, "", "Click to run a full evaluation.");
  return { text: `${look.icon} BYOP: ${status}`, background: look.background, tooltip: lines.join("\n") };
}
