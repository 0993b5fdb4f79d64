-- :checkhealth byop — binary, version, API key presence (never the key itself).
local M = {}

local KEY_VARS = { anthropic = "ANTHROPIC_API_KEY", openai = "OPENAI_API_KEY" }

function M.check()
  local health = vim.health
  local byop = require("byop")
  health.start("byop")

  if vim.fn.has("nvim-0.11") == 1 then
    health.ok("Neovim " .. tostring(vim.version()))
  else
    health.error("Neovim 0.11 or newer is required", { "Upgrade Neovim" })
  end

  local cmd = byop.config.cmd
  local bin = type(cmd) == "string" and cmd or (type(cmd) == "table" and cmd[1]) or nil
  local path = bin and vim.fn.exepath(bin) or ""
  if path == "" then
    health.error("byop binary not found: " .. tostring(bin), {
      "Install it (in the BYOP repository: `cargo install --path .`) so that `byop` is on PATH,",
      'or pass its full path: require("byop").setup({ cmd = { "/path/to/byop", "lsp" } })',
    })
  else
    health.ok("byop binary: " .. path)
    local out = vim.fn.system({ path, "--version" })
    if vim.v.shell_error == 0 then
      health.ok("version: " .. vim.trim(out))
    else
      health.warn("`byop --version` failed: " .. vim.trim(out))
    end
  end

  local settings = byop.config.settings or {}
  local provider = settings.provider or "anthropic"
  local var = KEY_VARS[provider]
  if not var then
    health.error("unknown provider in settings: " .. tostring(provider), { "Use anthropic or openai" })
  elseif byop.has_session_key(provider) then
    health.ok(provider .. " API key: set for this session with :ByopSetKey")
  elseif vim.env[var] and vim.env[var] ~= "" then
    health.ok(provider .. " API key: present in $" .. var)
  else
    health.warn(provider .. " API key: not set; only deterministic checks can run", {
      "Set $" .. var .. " before starting Neovim, or run :ByopSetKey " .. provider,
    })
  end

  local clients = vim.lsp.get_clients({ name = "byop" })
  if #clients > 0 then
    health.ok(string.format("language server running (%d client%s)", #clients, #clients == 1 and "" or "s"))
  else
    health.info("language server not running: open a *.ai.md, *.byop.md or *.aiout file")
  end
end

return M
