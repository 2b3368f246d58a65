"""Where the user's model is and one call to it: POST {base}/chat/completions, the
OpenAI-compatible chat API, with the standard library only.

Configured by PAPERATLAS_LLM_BASE_URL (e.g. http://127.0.0.1:11434/v1 for Ollama),
PAPERATLAS_LLM_MODEL and PAPERATLAS_LLM_API_KEY (optional), or the same keys (base_url,
model, api_key) in a TOML file named by PAPERATLAS_LLM_CONFIG; the environment wins."""

from __future__ import annotations

import json
import os
import time
import tomllib
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path

from paperatlas.errors import PaperatlasError

TIMEOUT = 120.0  # seconds for one answer (a CPU-run model writes slowly)
RETRIES = 3  # a refused connection, 429 and 5xx are asked again, with a growing wait
RETRY_WAIT = 1.0


@dataclass(frozen=True)
class Endpoint:
    base_url: str
    model: str
    api_key: str | None = None
    timeout: float = TIMEOUT


def endpoint_from_env(environ: dict[str, str] | None = None) -> Endpoint:
    """The configured endpoint; a PaperatlasError naming what is missing when none is."""
    env = dict(os.environ if environ is None else environ)
    config: dict[str, str] = {}
    if env.get("PAPERATLAS_LLM_CONFIG"):
        path = Path(env["PAPERATLAS_LLM_CONFIG"])
        try:
            config = {k: str(v) for k, v in tomllib.loads(path.read_text(encoding="utf-8")).items()}
        except (OSError, tomllib.TOMLDecodeError) as exc:
            raise PaperatlasError(f"{path}: cannot read the model's settings ({exc})") from None
    base = env.get("PAPERATLAS_LLM_BASE_URL") or config.get("base_url")
    model = env.get("PAPERATLAS_LLM_MODEL") or config.get("model")
    if not base or not model:
        raise PaperatlasError(
            "no model endpoint: set PAPERATLAS_LLM_BASE_URL (an OpenAI-compatible API, e.g. "
            "http://127.0.0.1:11434/v1) and PAPERATLAS_LLM_MODEL, or name a TOML file in PAPERATLAS_LLM_CONFIG"
        )
    if not base.startswith(("http://", "https://")):
        raise PaperatlasError(f"PAPERATLAS_LLM_BASE_URL must start with http:// or https://, not {base!r}")
    return Endpoint(base.rstrip("/"), model, env.get("PAPERATLAS_LLM_API_KEY") or config.get("api_key"))


def chat(endpoint: Endpoint, system: str, user: str, max_tokens: int) -> tuple[str, int]:
    """The model's answer to one prompt and the tokens the call used (as the server counts
    them; 0 when it does not say)."""
    body = json.dumps(
        {
            "model": endpoint.model,
            "messages": [{"role": "system", "content": system}, {"role": "user", "content": user}],
            "max_tokens": max_tokens,
            "temperature": 0,
        }
    ).encode("utf-8")
    headers = {"Content-Type": "application/json"}
    if endpoint.api_key:
        headers["Authorization"] = f"Bearer {endpoint.api_key}"
    request = urllib.request.Request(f"{endpoint.base_url}/chat/completions", body, headers, method="POST")
    for attempt in range(RETRIES + 1):
        try:
            with urllib.request.urlopen(request, timeout=endpoint.timeout) as response:
                data = json.loads(response.read())
            break
        except urllib.error.HTTPError as exc:
            if (exc.code != 429 and exc.code < 500) or attempt == RETRIES:
                raise PaperatlasError(f"{endpoint.base_url}: HTTP {exc.code} {exc.reason}") from None
        except (urllib.error.URLError, TimeoutError, ConnectionError) as exc:
            if attempt == RETRIES:
                raise PaperatlasError(f"{endpoint.base_url}: {getattr(exc, 'reason', exc)}") from None
        time.sleep(RETRY_WAIT * 2**attempt)
    try:
        text = data["choices"][0]["message"]["content"] or ""
    except (KeyError, IndexError, TypeError):
        raise PaperatlasError(f"{endpoint.base_url}: not an OpenAI-compatible chat answer") from None
    usage = data.get("usage") or {}
    return str(text).strip(), int(usage.get("total_tokens") or 0)
