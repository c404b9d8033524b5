-- The redirect bench's realistic mix (bench/redirect.ts): every request is a line of MIX_FILE,
-- "path<TAB>client address<TAB>user agent<TAB>accept-encoding", sent with the address as
-- X-Forwarded-For (an empty accept-encoding is not sent). The requests are formatted once per
-- thread at start, so wrk spends nothing per request on them; each thread starts at its own place
-- in the list.
local requests = {}
local count = 0
local at = 0
local threads = 0

function setup(thread)
  threads = threads + 1
  thread:set("offset", threads)
end

function init(args)
  local file = assert(io.open(os.getenv("MIX_FILE"), "r"))
  for line in file:lines() do
    local path, address, agent, encoding = line:match("^([^\t]*)\t([^\t]*)\t([^\t]*)\t(.*)$")
    local headers = { ["X-Forwarded-For"] = address, ["User-Agent"] = agent }
    if encoding ~= "" then headers["Accept-Encoding"] = encoding end
    count = count + 1
    requests[count] = wrk.format("GET", path, headers)
  end
  file:close()
  at = (offset * 7919) % count
end

function request()
  at = at % count + 1
  return requests[at]
end
