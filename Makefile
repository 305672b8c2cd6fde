# Two commands do everything on a fresh machine: `make demo` and `make test`.
# Both create .venv and install the project into it the first time (and again when pyproject.toml changes).
PY     ?= python3
VENV   ?= .venv
DEVICE ?= cpu
# CPU machines take torch's CPU build; on an NVIDIA machine: make demo DEVICE=cuda TORCH=torch EXTRAS=dev,lab,cuda
TORCH  ?= torch==2.13.0
EXTRAS ?= dev,lab
# the tests also drive a real browser (Playwright + Debian's chromium), a local Ray cluster and TRL's GRPO trainer
TEST_EXTRAS ?= dev,lab,browser,ray,rl
PYTEST_ARGS ?=
BIN    := $(VENV)/bin

.PHONY: setup demo test sync-check clean
setup: $(VENV)/.installed

$(VENV)/.installed: pyproject.toml
	$(PY) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q "$(TORCH)"
	$(BIN)/python -m pip install -q -e ".[$(EXTRAS)]"
	touch $@

demo: setup
	$(BIN)/cal demo --device $(DEVICE)

$(VENV)/.installed-test: $(VENV)/.installed
	$(BIN)/python -m pip install -q -e ".[$(TEST_EXTRAS)]"
	touch $@

test: setup $(VENV)/.installed-test
	$(BIN)/nbdev-test --n-workers 2
	$(BIN)/python -m pytest -ra --durations=30 $(PYTEST_ARGS)

# fails when the notebooks and the exported library (or the cleaned notebooks) differ from what is committed
sync-check: setup
	$(BIN)/nbdev-export
	$(BIN)/nbdev-clean
	@if [ -n "$$(git status --porcelain --untracked-files=all -- nbs cuda_agent_lab)" ]; then \
	  echo "notebooks and library out of sync: run nbdev-export and nbdev-clean, then commit"; \
	  git status --short -- nbs cuda_agent_lab; git --no-pager diff --stat; exit 1; fi

clean:
	rm -rf $(VENV)
