// What a tool call is, for both ways the plugin summarizes: the vaultsum binary over MCP
// (binary/server.ts) and the engine inside Obsidian (engine/in-app.ts). Nothing here may need
// Node: the in-app engine runs where there is none (mobile).

/** What a tool call returned: the text, whether it is an error, and the `details` (`_meta`). */
export interface ToolResult {
  text: string;
  isError: boolean;
  details: Record<string, unknown>;
}

/** One `notifications/progress` of a call; `details` are its `_meta.details` (a batch's note). */
export interface Progress {
  progress: number;
  total?: number;
  message?: string;
  details?: Record<string, unknown>;
}

export interface CallOptions {
  onProgress?: (progress: Progress) => void;
  /** Aborting sends MCP `notifications/cancelled`; the binary then drops the call unwritten. */
  signal?: AbortSignal;
}

/** The vaultsum program could not be started, or stopped and was not restarted. */
export class ServerError extends Error {}

/** A call the person cancelled. */
export class CallCancelled extends Error {}

/** Where tool calls go: the binary, or the engine inside Obsidian. */
export interface Backend {
  call(name: string, args: Record<string, unknown>, options?: CallOptions): Promise<ToolResult>;
}
