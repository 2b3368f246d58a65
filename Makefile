# paperatlas: `make demo` runs the main job on the bundled sample; `make test` runs the tests.
# Every target sets up .venv itself, so both work on a fresh machine with Python 3.11.

PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
BIN := $(VENV)/bin
DB ?= .paperatlas/demo.db
PORT ?= 8765

.PHONY: install test-install demo lint test test-fast faults browser-deps clean

install: $(VENV)/.installed

# Everything a user gets, without torch: minilm runs as an int8 ONNX model on onnxruntime.
$(VENV)/.installed: pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e .
	touch $@

test-install: $(VENV)/.test-installed

# The tests also compare minilm's ONNX engine with the torch model, so they install the
# torch extra. torch is pinned and installed first: its CPU wheel lies on disk, while
# letting a dependency pull "torch" unpinned would fetch a multi-GB CUDA build.
$(VENV)/.test-installed: $(VENV)/.installed
	$(BIN)/pip install --quiet torch==2.13.0
	$(BIN)/pip install --quiet -e '.[test,dev,ray,torch]'
	touch $@

# Headless Chromium and its driver for the browser tests (Debian packages; needs root).
browser-deps:
	@if command -v chromium >/dev/null && command -v chromedriver >/dev/null && fc-list :lang=zh 2>/dev/null | grep -q .; then :; \
	elif [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver fonts-wqy-zenhei >/dev/null; \
	else echo "note: chromium/chromedriver not installed and not root: browser tests will be skipped"; fi

# The whole main job on the bundled sample, in one command: add, enrich, embed static, serve
# (and open the browser) while the map and the other search models are computed beside it.
demo: install
	rm -f $(DB) $(DB)-* $(DB).*
	$(BIN)/paperatlas open examples/iclr2026_sample_list.txt --list sample --db $(DB) --port $(PORT)

# Style (ruff check, ruff format --check), types (mypy, config in pyproject.toml) and the
# pipeline's import layers (import-linter contracts in pyproject.toml). Zero findings.
lint: test-install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy
	$(BIN)/lint-imports

# Every test, on two workers, each taking a whole test module at a time: its module fixtures
# (atlases, servers, a browser) are built once, as in one process, and its tests run in order.
# The longest modules go first (tests/module_order.py; --no-loadscope-reorder keeps that
# order), so that the workers end together.
test: test-install browser-deps
	HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1 $(BIN)/python -m pytest -q -n 2 --dist loadfile --no-loadscope-reorder

# Everything but the slow tests (real embedding models, killed or served processes, map
# fits, property tests of hundreds of inputs), Ray and the browser (markers in
# pyproject.toml), on two workers: the loop while editing. About 80 CPU-seconds (measured):
# under 90 s on two idle cores (projected; 168 s wall measured on two cores loaded 8-13 by
# other work; docs/benchmarks.md, "Issue 38").
test-fast: test-install
	HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1 $(BIN)/python -m pytest -q -n 2 -m "not slow and not browser and not ray"

# The long fault matrix: kill -9 / SIGTERM of add, enrich, embed and map at several points on
# a 4,000-paper list (enrich's worker pool on), stores checked and resumed, orphans counted;
# the table goes to test-artifacts/faults-table.txt. (`make test` runs the fast part.) Then the
# hostile inputs and requests: folders' links, terminal controls, size limits, bombs, full
# disks, bad ids and numbers, repeated headers, read-only writes, bounded workers.
faults: test-install
	mkdir -p test-artifacts
	PAPERATLAS_FAULTS=full PAPERATLAS_FAULTS_TABLE=test-artifacts/faults-table.txt $(BIN)/python -m pytest -q tests/test_faults.py tests/test_hostile_input.py tests/test_hostile_formats.py tests/test_hostile_serve.py
	@cat test-artifacts/faults-table.txt

clean:
	rm -rf $(VENV) .paperatlas .pytest_cache
