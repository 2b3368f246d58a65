"""A model the user brings: an OpenAI-compatible chat endpoint (Ollama, llama.cpp's
server, vLLM, a hosted API), used only when asked (`paperatlas llm TASK`), for a Chinese
one-sentence summary, a Chinese title, an English title for an untitled paper.

`endpoint.py` reads where it is (environment or a config file) and makes one call;
`tasks.py` holds each task's prompt, its version and the check an answer must pass;
`run.py` asks for every paper that lacks an answer, N calls at a time, storing each answer
as it comes (store/llm.py), so an interrupted run loses nothing and a rerun asks only for
what is missing.
"""

from paperatlas.llm.endpoint import Endpoint, endpoint_from_env
from paperatlas.llm.run import Estimate, RunReport, estimate, run_task
from paperatlas.llm.tasks import TASKS

__all__ = ["TASKS", "Endpoint", "Estimate", "RunReport", "endpoint_from_env", "estimate", "run_task"]
