"""Lists and reads every resource of marque's /mcp with the official MCP
Python SDK (PyPI `mcp`), for the consumer matrix (tests/it/matrix/mcp.rs).

    python3 mcp_matrix.py URL…

Prints one JSON object: for each resource listed, by URI, its listed
`mimeType` and `size`, and what resources/read gave: the `mimeType` and
the byte length of its text (UTF-8) or blob (base64-decoded), or the
error it raised.
"""

import base64
import json
import sys

import anyio
from mcp.client.session import ClientSession
from mcp.client.streamable_http import streamable_http_client

URLS = sys.argv[1:]


async def main():
    report = {}
    for url in URLS:
        await one(url, report)
    print(json.dumps(report))


async def one(url, report):
    async with streamable_http_client(url) as streams:
        async with ClientSession(streams[0], streams[1]) as s:
            await s.initialize()
            listed = await s.list_resources()
            for r in listed.resources:
                uri = str(r.uri)
                entry = {"mimeType": r.mime_type, "size": r.size}
                try:
                    read = await s.read_resource(uri)
                    c = read.contents[0]
                    if getattr(c, "blob", None) is not None:
                        data = base64.b64decode(c.blob)
                    else:
                        data = c.text.encode("utf-8")
                    entry["read"] = {"mimeType": c.mime_type, "bytes": len(data)}
                except Exception as e:  # the cell reports it
                    entry["error"] = repr(e)
                report[uri] = entry


anyio.run(main)
