-- BYOP for Neovim: registers `byop lsp` with the built-in LSP client for
-- AI-output documents, adds the :Byop* commands and a statusline component.
-- The server does the work; this module only translates (the protocol: README, "Language server").
local M = {}

local DISCLAIMERS = {
  "This is an observability report, not legal advice.",
  "Pass ≠ safe. Fail ≠ wrong. Indeterminate is expected.",
  "Report describes behavior under this playbook and inputs.",
}
M.VARIANCE_NOTE = "Variance in results may reflect evaluator model behavior, not only the AI output being tested. "
  .. "BYOP reports describe observable signals, not ground truth."
M.DISCLAIMERS = DISCLAIMERS

local defaults = {
  -- Command that starts the server; a string is taken as the binary's path.
  cmd = { "byop", "lsp" },
  -- Extra environment for the server process (e.g. ANTHROPIC_BASE_URL).
  cmd_env = nil,
  -- Sent as initializationOptions and workspace/didChangeConfiguration under `byop`:
  -- onSave, provider, model, baseUrl, runs, maxRuns, trustWorkspaceEvaluator, logLevel, playbook.
  settings = {},
  -- Files the server attaches to (globs matched against the file name).
  patterns = { "*.ai.md", "*.byop.md", "*.aiout" },
  root_markers = { "byop.toml", ".byop", ".git" },
  -- :ByopReport: "auto" (browser when the server renders HTML and a display
  -- is available, else a scratch buffer), "buffer" or "browser".
  report_view = "auto",
}

M.config = vim.deepcopy(defaults)

-- byop/status per file name (server URIs and buffer URIs may be encoded differently).
local statuses = {}
-- Latest work-done progress message of the byop client, for the statusline.
local progress_message = nil
-- Keys from :ByopSetKey, this session only; re-sent if the server restarts.
local session_keys = {}

-- Neovim 0.11 is the oldest version tested (see the README); older ones are refused.
local supported = vim.fn.has("nvim-0.11") == 1

local function notify(msg, level)
  vim.notify("BYOP: " .. msg, level or vim.log.levels.INFO, { title = "BYOP" })
end

local function normalize_cmd(cmd)
  if type(cmd) == "string" then
    return { cmd, "lsp" }
  end
  return cmd
end

--- Globs → Vim regexes, compiled once per setup.
local matchers = {}
local function compile_patterns(patterns)
  matchers = {}
  for _, glob in ipairs(patterns) do
    table.insert(matchers, vim.regex(vim.fn.glob2regpat(glob)))
  end
end

--- Whether a buffer is an AI-output document BYOP should attach to.
function M.is_byop_buffer(bufnr)
  bufnr = (bufnr == nil or bufnr == 0) and vim.api.nvim_get_current_buf() or bufnr
  if not vim.api.nvim_buf_is_valid(bufnr) or vim.bo[bufnr].buftype ~= "" then
    return false
  end
  local name = vim.fs.basename(vim.api.nvim_buf_get_name(bufnr))
  if name == "" then
    return false
  end
  for _, re in ipairs(matchers) do
    if re:match_str(name) then
      return true
    end
  end
  return false
end

local function root_for(bufnr)
  local file = vim.api.nvim_buf_get_name(bufnr)
  return vim.fs.root(bufnr, M.config.root_markers) or vim.fs.dirname(file)
end

local function fname_key(uri)
  local ok, fname = pcall(vim.uri_to_fname, uri)
  return ok and vim.fs.normalize(fname) or uri
end

local function on_status(_, params)
  if type(params) ~= "table" or type(params.uri) ~= "string" or type(params.status) ~= "string" then
    return
  end
  statuses[fname_key(params.uri)] = params
  if params.status ~= "RUNNING" then
    progress_message = nil
  end
  vim.api.nvim_exec_autocmds("User", { pattern = "ByopStatus", modeline = false, data = params })
  vim.cmd("redrawstatus!")
end

local function client_request(client, method, params, handler, bufnr)
  return client:request(method, params, handler, bufnr)
end

local function send_settings(client)
  local msg = { settings = { byop = M.config.settings } }
  client:notify("workspace/didChangeConfiguration", msg)
end

local function on_init(client)
  for provider, key in pairs(session_keys) do
    client_request(client, "workspace/executeCommand", {
      command = "byop.setApiKey",
      arguments = { { provider = provider, key = key } },
    }, function() end)
  end
end

local function client_config()
  return {
    name = "byop",
    cmd = normalize_cmd(M.config.cmd),
    cmd_env = M.config.cmd_env,
    init_options = { byop = M.config.settings },
    settings = { byop = M.config.settings },
    handlers = { ["byop/status"] = on_status },
    on_init = on_init,
  }
end

local augroup = vim.api.nvim_create_augroup("byop", { clear = true })

local function start_for_buffer(bufnr)
  if not M.is_byop_buffer(bufnr) then
    return
  end
  local cfg = client_config()
  cfg.root_dir = root_for(bufnr)
  vim.lsp.start(cfg, { bufnr = bufnr })
end

local function filetype_of(filename)
  return vim.filetype.match({ filename = filename })
end

--- Registers the server. Options: see `defaults` above and editors/nvim/README.md.
function M.setup(opts)
  if not supported then
    notify("needs Neovim 0.11 or newer (this is " .. tostring(vim.version()) .. ")", vim.log.levels.ERROR)
    return
  end
  M.config = vim.tbl_deep_extend("force", vim.deepcopy(defaults), opts or {})
  if opts and opts.patterns then
    M.config.patterns = opts.patterns
  end
  compile_patterns(M.config.patterns)
  vim.api.nvim_clear_autocmds({ group = augroup })

  -- `.aiout` has no filetype of its own; call it text so FileType fires.
  if filetype_of("x.aiout") == nil then
    vim.filetype.add({ extension = { aiout = "text" } })
  end

  -- vim.lsp.enable() starts servers from FileType events, which need filetype
  -- detection (on by default; off under `nvim -u NONE`): else use autocmds.
  if vim.lsp.config and vim.lsp.enable and vim.g.did_load_filetypes then
    local cfg = client_config()
    cfg.name = nil
    -- Started by filetype, then narrowed to our file patterns: root_dir only
    -- answers for AI-output documents, so plain markdown files get no client.
    local filetypes = { "markdown", "text" }
    for _, glob in ipairs(M.config.patterns) do
      local ft = filetype_of(glob:gsub("^%*+", "x"))
      if ft and not vim.tbl_contains(filetypes, ft) then
        table.insert(filetypes, ft)
      end
    end
    cfg.filetypes = filetypes
    cfg.root_dir = function(bufnr, on_dir)
      if M.is_byop_buffer(bufnr) then
        on_dir(root_for(bufnr))
      end
    end
    vim.lsp.config("byop", cfg)
    vim.lsp.enable("byop")
  else
    local globs = {}
    for _, glob in ipairs(M.config.patterns) do
      table.insert(globs, glob)
    end
    vim.api.nvim_create_autocmd({ "BufReadPost", "BufNewFile" }, {
      group = augroup,
      pattern = globs,
      callback = function(ev)
        start_for_buffer(ev.buf)
      end,
    })
    for _, bufnr in ipairs(vim.api.nvim_list_bufs()) do
      if vim.api.nvim_buf_is_loaded(bufnr) then
        start_for_buffer(bufnr)
      end
    end
  end

  -- Also globally, so a byop client started elsewhere (nvim-lspconfig) feeds the statusline.
  vim.lsp.handlers["byop/status"] = on_status

  -- Work-done progress ("check 3/6, run 2/3") for the statusline.
  vim.api.nvim_create_autocmd("LspProgress", {
    group = augroup,
    callback = function(ev)
      local client = vim.lsp.get_client_by_id(ev.data.client_id)
      if not client or client.name ~= "byop" then
        return
      end
      local value = ev.data.params and ev.data.params.value or {}
      if value.kind == "end" then
        progress_message = nil
      else
        progress_message = value.message or value.title
      end
      vim.cmd("redrawstatus!")
    end,
  })

  M.define_highlights()
  vim.api.nvim_create_autocmd("ColorScheme", { group = augroup, callback = M.define_highlights })
  M.create_commands()
end

--- Replaces the settings and tells running servers (workspace/didChangeConfiguration).
function M.set_settings(settings)
  M.config.settings = settings or {}
  for _, client in ipairs(vim.lsp.get_clients({ name = "byop" })) do
    client.settings = { byop = M.config.settings }
    send_settings(client)
  end
end

-- ---------------------------------------------------------------- commands

local function byop_client(bufnr)
  bufnr = bufnr or vim.api.nvim_get_current_buf()
  local client = vim.lsp.get_clients({ name = "byop", bufnr = bufnr })[1]
  if not client then
    notify(
      "no byop language server on this buffer. Open a *.ai.md, *.byop.md or *.aiout file; see :checkhealth byop.",
      vim.log.levels.ERROR
    )
  end
  return client
end

--- Runs a server command for the current buffer; `callback(result)` on success.
local function execute(command, args, callback, bufnr)
  bufnr = bufnr or vim.api.nvim_get_current_buf()
  local client = byop_client(bufnr)
  if not client then
    return false
  end
  client_request(client, "workspace/executeCommand", { command = command, arguments = { args } }, function(err, result)
    if err then
      if callback then
        callback(nil, err)
      else
        notify(command .. " failed: " .. (err.message or vim.inspect(err)), vim.log.levels.ERROR)
      end
      return
    end
    if callback then
      callback(result)
    end
  end, bufnr)
  return true
end

function M.evaluate(mode, bufnr)
  bufnr = bufnr or vim.api.nvim_get_current_buf()
  local uri = vim.uri_from_bufnr(bufnr)
  statuses[fname_key(uri)] = { uri = uri, status = "RUNNING", mode = mode }
  vim.cmd("redrawstatus!")
  return execute("byop.evaluate", { uri = uri, mode = mode }, function(result, err)
    if err then
      statuses[fname_key(uri)] = nil
      vim.cmd("redrawstatus!")
      notify(mode .. " evaluation failed: " .. (err.message or vim.inspect(err)), vim.log.levels.ERROR)
      return
    end
    -- The server sends byop/status too; this covers a result without one.
    local summary = type(result) == "table" and result.byop_report and result.byop_report.summary
    local current = statuses[fname_key(uri)]
    if summary and summary.overall_status and current and current.status == "RUNNING" then
      on_status(nil, { uri = uri, status = summary.overall_status, mode = mode })
    end
  end, bufnr)
end

function M.save_baseline()
  local uri = vim.uri_from_bufnr(0)
  return execute("byop.saveBaseline", { uri = uri }, function(_, err)
    if err then
      notify("could not save the baseline: " .. (err.message or ""), vim.log.levels.ERROR)
    else
      notify("saved the latest report as the baseline of " .. vim.fs.basename(vim.uri_to_fname(uri)))
    end
  end)
end

function M.encode_json(value)
  local ok, text = pcall(vim.json.encode, value, { indent = "  " })
  if not ok then
    text = vim.json.encode(value)
  end
  return text .. "\n"
end

--- `nda_review.ai.md` → `nda_review.byop-report.json` beside it.
function M.default_export_path(file)
  local base = vim.fs.basename(file)
  for _, ext in ipairs({ "%.ai%.md$", "%.byop%.md$", "%.aiout$" }) do
    base = base:gsub(ext, "")
  end
  return vim.fs.joinpath(vim.fs.dirname(file), base .. ".byop-report.json")
end

function M.export(path)
  local bufnr = vim.api.nvim_get_current_buf()
  local file = vim.api.nvim_buf_get_name(bufnr)
  local dest = (path and path ~= "") and vim.fn.fnamemodify(vim.fn.expand(path), ":p") or M.default_export_path(file)
  return execute("byop.exportReport", { uri = vim.uri_from_bufnr(bufnr) }, function(report, err)
    if err or type(report) ~= "table" then
      notify(
        "no report to export (" .. (err and err.message or "empty answer") .. "). Run :ByopFull or :ByopScreen first.",
        vim.log.levels.ERROR
      )
      return
    end
    local fd, open_err = io.open(dest, "w")
    if not fd then
      notify("cannot write " .. dest .. ": " .. tostring(open_err), vim.log.levels.ERROR)
      return
    end
    fd:write(M.encode_json(report))
    fd:close()
    notify("report written to " .. dest)
  end, bufnr)
end

-- Report as text for the scratch buffer: disclaimers first, always.
function M.report_lines(envelope, title)
  local r = type(envelope) == "table" and (envelope.byop_report or envelope) or {}
  local summary = r.summary or {}
  local variance = r.variance_summary or {}
  local lines = {}
  local function add(s)
    for line in (tostring(s) .. "\n"):gmatch("(.-)\n") do
      table.insert(lines, line)
    end
  end
  local function fmt(n)
    return type(n) == "number" and string.format("%.2f", n) or "–"
  end
  for _, d in ipairs(DISCLAIMERS) do
    add("> " .. d)
  end
  add("> " .. M.VARIANCE_NOTE)
  add("")
  add("# BYOP report — " .. title)
  add("")
  add("Overall status: **" .. tostring(summary.overall_status or "NONE") .. "**")
  add(
    string.format(
      "Mode: %s · consistency %s over %s run(s)",
      tostring(r.execution_mode or "–"),
      fmt(variance.consistency_score),
      tostring(variance.num_runs or "–")
    )
  )
  add(string.format("Playbook: %s %s", tostring(r.playbook_id or "–"), tostring(r.playbook_version or "")))
  if type(r.evaluator) == "table" and r.evaluator.provider then
    add(string.format("Evaluator: %s / %s", r.evaluator.provider, tostring(r.evaluator.model)))
  end
  add("Timestamp: " .. tostring(r.timestamp or "–"))
  local function section(name, items)
    add("")
    add("## " .. name)
    if type(items) ~= "table" or #items == 0 then
      add("None.")
    else
      for _, item in ipairs(items) do
        add("- " .. tostring(item))
      end
    end
  end
  section("Key risks", summary.key_risks)
  section("Recommended next steps", summary.recommended_next_steps)
  add("")
  add("## Checks")
  for _, c in ipairs(r.check_results or {}) do
    add("")
    add(
      string.format(
        "### %s — %s (%s)  confidence %s, consistency %s",
        tostring(c.check_id),
        string.upper(tostring(c.result)),
        tostring(c.severity or "?"),
        fmt(c.per_check_confidence),
        fmt(c.per_check_consistency)
      )
    )
    if c.notes and c.notes ~= "" then
      add(c.notes)
    end
    for _, cit in ipairs(c.evidence_citations or {}) do
      add(string.format("  > “%s” (%s, %s)", tostring(cit.span), tostring(cit.location or "?"), tostring(cit.located or "?")))
    end
  end
  section("Divergent findings", variance.divergent_findings)
  if type(r.notices) == "table" and #r.notices > 0 then
    section("Notices", r.notices)
  end
  local integrity = r.integrity or {}
  add("")
  add("## Integrity")
  add("playbook_logic_hash: " .. tostring(integrity.playbook_logic_hash or "–"))
  add("inputs_fingerprint:  " .. tostring(integrity.inputs_fingerprint or "–"))
  add("runner_fingerprint:  " .. tostring(integrity.runner_fingerprint or "–"))
  return lines
end

local function show_report_buffer(envelope, title)
  local lines = M.report_lines(envelope, title)
  local name = "byop://report/" .. title
  local existing = vim.fn.bufnr(name)
  local buf = existing ~= -1 and existing or vim.api.nvim_create_buf(false, true)
  if existing == -1 then
    vim.api.nvim_buf_set_name(buf, name)
  end
  vim.bo[buf].modifiable = true
  vim.api.nvim_buf_set_lines(buf, 0, -1, false, lines)
  vim.bo[buf].modifiable = false
  vim.bo[buf].buftype = "nofile"
  vim.bo[buf].bufhidden = "hide"
  vim.bo[buf].swapfile = false
  vim.bo[buf].filetype = "markdown"
  local win = vim.fn.bufwinid(buf)
  if win == -1 then
    vim.cmd("botright vsplit")
    vim.api.nvim_win_set_buf(0, buf)
  else
    vim.api.nvim_set_current_win(win)
  end
  return buf
end

local function banner_html()
  local items = {}
  for _, d in ipairs(DISCLAIMERS) do
    table.insert(items, "<li>" .. d .. "</li>")
  end
  table.insert(items, "<li>" .. M.VARIANCE_NOTE .. "</li>")
  return '<div id="byop-disclaimer-banner" style="position:sticky;top:0;padding:8px 12px;'
    .. 'border:2px solid #b58900;background:#fff8dc;color:#3b2f00;font-family:sans-serif">'
    .. "<ul>"
    .. table.concat(items)
    .. "</ul></div>"
end

local function has_display()
  return vim.env.DISPLAY ~= nil or vim.env.WAYLAND_DISPLAY ~= nil or vim.fn.has("mac") == 1 or vim.fn.has("win32") == 1
end

local function open_html(html, title)
  local file = vim.fn.tempname() .. "-" .. title:gsub("[^%w%._-]", "_") .. ".html"
  local body = html:find("<body[^>]*>") and html:gsub("(<body[^>]*>)", "%1" .. banner_html():gsub("%%", "%%%%"), 1)
    or (banner_html() .. html)
  local fd = io.open(file, "w")
  if not fd then
    return false
  end
  fd:write(body)
  fd:close()
  -- vim.ui.open returns nil and a message when no opener exists.
  local ok, handle, open_err = pcall(vim.ui.open, file)
  if not ok or (handle == nil and open_err ~= nil) then
    return false
  end
  notify("report opened in the browser: " .. file)
  return true
end

function M.show_report()
  local bufnr = vim.api.nvim_get_current_buf()
  local uri = vim.uri_from_bufnr(bufnr)
  local title = vim.fs.basename(vim.api.nvim_buf_get_name(bufnr))
  local view = M.config.report_view
  local function as_buffer()
    execute("byop.exportReport", { uri = uri }, function(report, err)
      if err or type(report) ~= "table" then
        notify(
          "no report to show (" .. (err and err.message or "empty answer") .. "). Run :ByopFull or :ByopScreen first.",
          vim.log.levels.ERROR
        )
        return
      end
      show_report_buffer(report, title)
    end, bufnr)
  end
  if view == "buffer" or (view == "auto" and not has_display()) then
    return as_buffer()
  end
  execute("byop.renderHtml", { uri = uri }, function(result, err)
    if not err and type(result) == "table" and type(result.html) == "string" and open_html(result.html, title) then
      return
    end
    as_buffer()
  end, bufnr)
end

--- The audit as text, for a terminal without a browser.
local function show_counterfactual_buffer(audit, title)
  local cf = audit.byop_counterfactual or {}
  local lines = { "BYOP counterfactual audit: " .. title }
  for _, d in ipairs((cf.presentation_rules or {}).disclaimers or {}) do
    lines[#lines + 1] = "  " .. d
  end
  lines[#lines + 1] = ""
  for _, r in ipairs(cf.results or {}) do
    lines[#lines + 1] = string.format(
      "%s %s × %s%s  b=%d c=%d flip=%.2f BH p=%.3g TOST %s",
      r.significant and "*" or " ",
      r.check_id,
      r.cue,
      r.placebo and " (placebo)" or "",
      r.b,
      r.c,
      r.flip_rate,
      r.bh_p,
      (r.tost or {}).verdict or "?"
    )
  end
  for _, w in ipairs(cf.warnings or {}) do
    lines[#lines + 1] = "! " .. w
  end
  vim.cmd("botright new")
  local buf = vim.api.nvim_get_current_buf()
  vim.bo[buf].buftype = "nofile"
  vim.bo[buf].bufhidden = "wipe"
  vim.api.nvim_buf_set_lines(buf, 0, -1, false, lines)
  vim.bo[buf].modifiable = false
  pcall(vim.api.nvim_buf_set_name, buf, "byop://counterfactual/" .. title)
end

--- :ByopCounterfactual [pairs=N] [checks=a,b] [max_calls=N] [cues=FILE] [seed=N]: the
--- counterfactual audit of the current buffer, with the server's progress; the
--- HTML result in the browser as :ByopReport does, else a buffer.
--- `opts` (from Lua): { pairs, checks = {…}, max_calls, cues, seed }.
function M.counterfactual(opts)
  opts = opts or {}
  local bufnr = vim.api.nvim_get_current_buf()
  local uri = vim.uri_from_bufnr(bufnr)
  local title = vim.fs.basename(vim.api.nvim_buf_get_name(bufnr))
  local args = { uri = uri, pairs = opts.pairs, checks = opts.checks, maxCalls = opts.max_calls, cues = opts.cues, seed = opts.seed }
  notify("counterfactual audit started")
  return execute("byop.counterfactual", args, function(result, err)
    if err or type(result) ~= "table" then
      notify("counterfactual audit failed: " .. (err and err.message or "empty answer"), vim.log.levels.ERROR)
      return
    end
    local view = M.config.report_view
    local want_html = not (view == "buffer" or (view == "auto" and not has_display()))
    if want_html and type(result.html) == "string" and open_html(result.html, "counterfactual-" .. title) then
      return
    end
    show_counterfactual_buffer(result, title)
  end, bufnr)
end

function M.set_key(provider)
  provider = (provider and provider ~= "") and provider or M.config.settings.provider or "anthropic"
  if provider ~= "anthropic" and provider ~= "openai" then
    notify("unknown provider " .. provider .. " (anthropic or openai)", vim.log.levels.ERROR)
    return
  end
  local key = vim.fn.inputsecret("BYOP " .. provider .. " API key (this session only): ")
  key = vim.trim(key or "")
  if key == "" then
    notify("no key entered; nothing changed")
    return
  end
  return execute("byop.setApiKey", { provider = provider, key = key }, function(_, err)
    if err then
      -- The server's message never contains the key.
      notify("the server did not accept the key: " .. (err.message or ""), vim.log.levels.ERROR)
    else
      session_keys[provider] = key
      notify(provider .. " API key set for this session")
    end
  end)
end

--- Whether :ByopSetKey set a key for the provider in this session (for :checkhealth).
function M.has_session_key(provider)
  return session_keys[provider] ~= nil
end

function M.create_commands()
  local cmd = vim.api.nvim_create_user_command
  cmd("ByopFull", function()
    M.evaluate("full")
  end, { desc = "BYOP: full evaluation (3 runs per check)" })
  cmd("ByopScreen", function()
    M.evaluate("screening")
  end, { desc = "BYOP: screening (1 run per check)" })
  cmd("ByopBaseline", function()
    M.save_baseline()
  end, { desc = "BYOP: save the latest report as baseline" })
  cmd("ByopExport", function(o)
    M.export(o.args)
  end, { nargs = "?", complete = "file", desc = "BYOP: export the report JSON [path]" })
  cmd("ByopReport", function()
    M.show_report()
  end, { desc = "BYOP: show the report" })
  cmd("ByopCounterfactual", function(o)
    local opts = {}
    for _, arg in ipairs(o.fargs) do
      local key, value = arg:match("^([%w_]+)=(.+)$")
      if key == "checks" then
        opts.checks = vim.split(value, ",", { trimempty = true })
      elseif key == "cues" then
        opts.cues = value
      elseif key == "pairs" or key == "max_calls" or key == "seed" then
        opts[key] = tonumber(value)
      else
        notify("unknown argument " .. arg .. " (pairs=, checks=, max_calls=, cues=, seed=)", vim.log.levels.ERROR)
        return
      end
    end
    M.counterfactual(opts)
  end, { nargs = "*", desc = "BYOP: Counterfactual Audit" })
  cmd("ByopSetKey", function(o)
    M.set_key(o.args)
  end, {
    nargs = "?",
    complete = function()
      return { "anthropic", "openai" }
    end,
    desc = "BYOP: set an API key for this session",
  })
end

-- -------------------------------------------------------------- statusline

-- Status colours: the diagnostic colour as background, so the item stands out
-- on any statusline. `default = true` leaves a user's own definitions alone.
local HIGHLIGHTS = {
  ALERT = { group = "ByopAlert", from = "DiagnosticError" },
  REVIEW = { group = "ByopReview", from = "DiagnosticWarn" },
  OBSERVE = { group = "ByopObserve", from = "DiagnosticInfo" },
  STABLE = { group = "ByopStable", from = "DiagnosticOk" },
  RUNNING = { group = "ByopRunning", from = "DiagnosticHint" },
  NONE = { group = "ByopNone", from = "Comment" },
}

function M.define_highlights()
  local normal_bg = vim.api.nvim_get_hl(0, { name = "Normal", link = false }).bg
  for status, h in pairs(HIGHLIGHTS) do
    local color = vim.api.nvim_get_hl(0, { name = h.from, link = false }).fg
    if color and status ~= "NONE" then
      vim.api.nvim_set_hl(0, h.group, { bg = color, fg = normal_bg or 0x000000, bold = true, default = true })
    else
      vim.api.nvim_set_hl(0, h.group, { link = h.from, default = true })
    end
  end
end

--- The latest `byop/status` params of a buffer, or nil.
function M.status(bufnr)
  bufnr = (bufnr == nil or bufnr == 0) and vim.api.nvim_get_current_buf() or bufnr
  local name = vim.api.nvim_buf_get_name(bufnr)
  if name == "" then
    return nil
  end
  return statuses[vim.fs.normalize(name)]
end

--- Statusline text for the current buffer: "" outside AI-output documents,
--- else "BYOP: ALERT", "BYOP: RUNNING check 3/6, run 2/3", "BYOP: NONE".
function M.statusline(bufnr)
  bufnr = (bufnr == nil or bufnr == 0) and vim.api.nvim_get_current_buf() or bufnr
  if not M.is_byop_buffer(bufnr) then
    return ""
  end
  local s = M.status(bufnr)
  local status = s and s.status or "NONE"
  local text = "BYOP: " .. status
  if status == "RUNNING" and progress_message then
    text = text .. " " .. progress_message
  elseif type(s) == "table" and type(s.consistency_score) == "number" then
    text = text .. string.format(" (%.2f)", s.consistency_score)
  end
  return text
end

--- Highlight group for the current status (lualine `color`, or %#Group# in a statusline).
function M.statusline_highlight(bufnr)
  local s = M.status(bufnr)
  return HIGHLIGHTS[s and s.status or "NONE"].group
end

--- A plain 'statusline' item with colour: set statusline+=%{%v:lua.require'byop'.statusline_component()%}
function M.statusline_component()
  local text = M.statusline()
  if text == "" then
    return ""
  end
  return "%#" .. M.statusline_highlight() .. "#" .. text:gsub("%%", "%%%%") .. "%*"
end

return M
