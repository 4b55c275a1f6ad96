"""The textbook retrieval pipeline, as a server to measure ours against (`benchmarks/ratio.py` starts it).

The guide in both languages split by LangChain's `RecursiveCharacterTextSplitter`, embedded with the
same model and engine settings as the service, stored in LangChain's Chroma; `POST /v1/ask` answers
with the top chunk of `similarity_search(k=3)`, served by Python's `http.server`.

Run: .venv/bin/python benchmarks/textbook.py --port 8100 --store /tmp/textbook
"""

from __future__ import annotations

import argparse
import json
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from langchain_chroma import Chroma
from langchain_text_splitters import RecursiveCharacterTextSplitter

from assistant.config import Settings
from assistant.embeddings import get_embeddings

ROOT = Path(__file__).resolve().parent.parent
GUIDES = {"en": ROOT / "corpus" / "guide.en.md", "nl": ROOT / "corpus" / "guide.nl.md"}


def build_store(folder: Path) -> Chroma:
    splitter = RecursiveCharacterTextSplitter(chunk_size=800, chunk_overlap=100)
    documents = splitter.create_documents(
        [path.read_text(encoding="utf-8") for path in GUIDES.values()],
        metadatas=[{"language": language} for language in GUIDES],
    )
    return Chroma.from_documents(documents, get_embeddings(Settings()), persist_directory=str(folder))


def handler_for(store: Chroma) -> type[BaseHTTPRequestHandler]:
    class Ask(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"  # keep-alive, as the service's server has
        # Headers and body go out in two writes: with Nagle's algorithm the body waits for the client's
        # delayed ACK (up to 40 ms) whenever questions follow each other closely. uvicorn sets TCP_NODELAY.
        disable_nagle_algorithm = True

        def do_POST(self) -> None:  # noqa: N802 (http.server's naming)
            question = json.loads(self.rfile.read(int(self.headers["Content-Length"])))["question"]
            top = store.similarity_search(question, k=3)[0]
            body = json.dumps({"answer": top.page_content, "metadata": top.metadata}).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, format: str, *args: object) -> None:  # noqa: A002 (http.server's signature)
            """Quiet, like the service with its access log at warning level."""

    return Ask


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--store", type=Path, required=True, help="an empty folder for its Chroma store")
    arguments = parser.parse_args()
    server = ThreadingHTTPServer(("127.0.0.1", arguments.port), handler_for(build_store(arguments.store)))
    print("ready", flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
