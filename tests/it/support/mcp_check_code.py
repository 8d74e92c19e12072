"""Calls marque's check_code tool and check-styles prompt with the official
MCP Python SDK (PyPI `mcp`) and prints one JSON report for tests/it/lint.rs.

    python3 mcp_check_code.py URL SLUG
"""

import json
import sys

import anyio
from mcp.client.session import ClientSession
from mcp.client.streamable_http import streamable_http_client

URL, SLUG = sys.argv[1], sys.argv[2]

CSS = """/* #0969da in a comment */
.button { color: #0969da; background: var(--color-harbr-500); border-color: #0d1117; }
"""


async def tool(session, args):
    res = await session.call_tool("check_code", args)
    return {
        "isError": bool(res.is_error),
        "structured": res.structured_content,
        "text": " ".join(getattr(c, "text", "") for c in res.content),
    }


async def main():
    report = {}
    async with streamable_http_client(URL) as streams:
        async with ClientSession(streams[0], streams[1]) as s:
            await s.initialize()
            tools = await s.list_tools()
            report["tools"] = [t.name for t in tools.tools]
            report["every"] = await tool(s, {"slug": SLUG, "code": CSS, "language": "css"})
            report["dark"] = await tool(s, {"slug": SLUG, "code": CSS, "language": "css", "mode": "theme=dark"})
            report["light"] = await tool(s, {"slug": SLUG, "code": CSS, "language": "css", "mode": "light"})
            report["clean"] = await tool(s, {"slug": SLUG, "code": "a { color: var(--color-ink); }", "language": "scss"})
            report["swift"] = await tool(s, {"slug": SLUG, "code": 'let c = Color("color-harbor-50")', "language": "swift"})
            report["badLanguage"] = await tool(s, {"slug": SLUG, "code": "x", "language": "cobol"})
            prompts = await s.list_prompts()
            report["prompts"] = [p.name for p in prompts.prompts]
            got = await s.get_prompt("check-styles", {"slug": SLUG})
            report["prompt"] = " ".join(getattr(m.content, "text", "") for m in got.messages)
    print(json.dumps(report))


anyio.run(main)
