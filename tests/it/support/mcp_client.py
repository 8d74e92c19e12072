"""Drives marque's /mcp with the official MCP Python SDK (PyPI `mcp`) and
prints one JSON report for tests/it/mcp.rs to check.

    python3 mcp_client.py URL BRAND_JSON_TO_EDIT

It initializes a session, lists and reads resources and templates, lists
and gets prompts with good and bad arguments, calls every tool (good and
bad), then edits BRAND_JSON_TO_EDIT and waits for the list_changed
notifications, and times resources/read and prompts/get against a plain GET.
"""

import json
import sys
import time

import anyio
import httpx
from mcp.client.session import ClientSession
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.exceptions import MCPError

URL, BRAND_JSON = sys.argv[1], sys.argv[2]
BASE = URL.rsplit("/mcp", 1)[0]


def dump(model):
    return model.model_dump(mode="json", by_alias=True, exclude_none=True)


async def error_of(call):
    """The JSON-RPC error a call answers with, or None."""
    try:
        await call
    except MCPError as e:
        return {"code": e.error.code, "message": e.error.message}
    return None


async def tool(session, name, args):
    res = await session.call_tool(name, args)
    return {
        "isError": bool(res.is_error),
        "structured": res.structured_content,
        "text": " ".join(getattr(c, "text", "") for c in res.content),
    }


async def timed(n, call):
    """Median milliseconds of `n` calls."""
    times = []
    for _ in range(n):
        started = time.perf_counter()
        await call()
        times.append((time.perf_counter() - started) * 1000)
    times.sort()
    return round(times[len(times) // 2], 3)


async def main():
    report = {}
    changed = {"resources": anyio.Event(), "prompts": anyio.Event()}

    async def on_message(message):
        method = getattr(getattr(message, "root", message), "method", None)
        if method == "notifications/resources/list_changed":
            changed["resources"].set()
        if method == "notifications/prompts/list_changed":
            changed["prompts"].set()

    async with streamable_http_client(URL) as streams:
        read, write = streams[0], streams[1]
        async with ClientSession(read, write, message_handler=on_message) as s:
            init = await s.initialize()
            report["initialize"] = {
                "protocolVersion": init.protocol_version,
                "serverName": init.server_info.name,
                "capabilities": dump(init.capabilities),
            }
            resources = await s.list_resources()
            report["resources"] = [dump(r) for r in resources.resources]
            templates = await s.list_resource_templates()
            report["templates"] = [dump(t) for t in templates.resource_templates]
            spec_md = f"{BASE}/brand/northwind/spec.md"
            read_md = await s.read_resource(spec_md)
            report["read"] = dump(read_md.contents[0])
            report["readUnknown"] = await error_of(
                s.read_resource(f"{BASE}/brand/nowhere/spec.md")
            )

            prompts = await s.list_prompts()
            report["prompts"] = [dump(p) for p in prompts.prompts]
            got = await s.get_prompt(
                "northwind/product-description",
                {"product": "Fjord Shell jacket", "facts": "310 g, 2-layer nylon", "words": "80"},
            )
            report["getPrompt"] = dump(got)
            report["getPromptMissing"] = await error_of(
                s.get_prompt("northwind/product-description", {})
            )
            report["getPromptUnknown"] = await error_of(
                s.get_prompt("northwind/no-such-prompt", {})
            )
            report["getPromptUnknownBrand"] = await error_of(
                s.get_prompt("nowhere/product-description", {})
            )

            tools = await s.list_tools()
            report["tools"] = [dump(t) for t in tools.tools]
            report["call"] = {
                "list_brands": await tool(s, "list_brands", {}),
                "get_brand": await tool(s, "get_brand", {"slug": "northwind", "section": "voice"}),
                "get_brand_bad_section": await tool(s, "get_brand", {"slug": "northwind", "section": "nope"}),
                "get_brand_unknown": await tool(s, "get_brand", {"slug": "nowhere"}),
                "find_tokens": await tool(s, "find_tokens", {"slug": "northwind", "prefix": "color.fjord"}),
                "find_tokens_type": await tool(s, "find_tokens", {"slug": "northwind", "type": "typography"}),
                "find_tokens_dark": await tool(s, "find_tokens", {"slug": "lumen-health", "prefix": "color.ink", "mode": "theme=dark"}),
                "find_tokens_bad_mode": await tool(s, "find_tokens", {"slug": "lumen-health", "mode": "dusk"}),
                "get_brand_dark": await tool(s, "get_brand", {"slug": "lumen-health", "section": "color", "mode": "dark"}),
                "check_contrast": await tool(
                    s, "check_contrast",
                    {"slug": "northwind", "foreground": "{color.fjord.900}", "background": "#ffffff"},
                ),
                "check_contrast_pair": await tool(
                    s, "check_contrast",
                    {"slug": "northwind", "foreground": "{color.fjord.900}", "background": "{color.signal.500}"},
                ),
                "check_contrast_bad": await tool(s, "check_contrast", {"foreground": "navy", "background": "#fff"}),
                "run_prompt": await tool(
                    s, "run_prompt",
                    {"slug": "northwind", "promptId": "product-description",
                     "variables": {"product": "Fjord Shell jacket", "facts": "310 g, 2-layer nylon", "words": "80"}},
                ),
                "run_prompt_bad": await tool(
                    s, "run_prompt", {"slug": "northwind", "promptId": "product-description", "variables": {}}
                ),
            }
            report["unknownTool"] = await error_of(s.call_tool("no_such_tool", {}))

            # Latency: resources/read and prompts/get against a plain GET.
            async with httpx.AsyncClient() as http:
                report["latencyMs"] = {
                    "get": await timed(200, lambda: http.get(spec_md)),
                    "resources/read": await timed(200, lambda: s.read_resource(spec_md)),
                    "prompts/get": await timed(
                        200,
                        lambda: s.get_prompt(
                            "northwind/product-description",
                            {"product": "Fjord Shell jacket", "facts": "310 g, 2-layer nylon", "words": "80"},
                        ),
                    ),
                }

            # An edit in watch mode: both lists change, and the next read is new.
            with open(BRAND_JSON) as f:
                text = f.read()
            with open(BRAND_JSON, "w") as f:
                f.write(text.replace("Outdoor gear for people", "Edited: outdoor gear for people", 1))
            with anyio.move_on_after(15):
                await changed["resources"].wait()
                await changed["prompts"].wait()
            report["listChanged"] = {k: e.is_set() for k, e in changed.items()}
            after = await s.read_resource(f"{BASE}/brand/northwind/spec.json")
            report["readAfterEdit"] = "Edited: outdoor gear" in after.contents[0].text
    print(json.dumps(report))


anyio.run(main)
