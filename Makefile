# avadata: build the node and the plugin, run a local network, run the tests.
# GNU make. `make run` brings up a local node with the avadata chain.

GO           ?= go
BUILD        := build
AVALANCHEGO  := $(BUILD)/avalanchego
PLUGIN_BIN   := $(BUILD)/avadata
PLUGIN_DIR   := $(BUILD)/plugins
LOCALNET     := $(BUILD)/avadata-localnet
CREATECHAIN  := $(BUILD)/avadata-createchain

# `make run` settings; override on the command line, e.g. make run HTTP_PORT=9750.
DATA_DIR     ?= .localnet
HTTP_PORT    ?= 9650
STAKING_PORT ?= 9651
RUN_FLAGS    ?=

.PHONY: all build plugin run clean clean-localnet test test-unit test-e2e bench FORCE

all: build

build: $(AVALANCHEGO) plugin $(LOCALNET) $(CREATECHAIN)

# The node comes from the module cache at the version pinned in go.mod, so
# only a go.mod/go.sum change can make it stale. go build leaves an
# up-to-date binary untouched; touch it so make does not ask again.
$(AVALANCHEGO): go.mod go.sum
	$(GO) build -o $@ github.com/ava-labs/avalanchego/main
	@touch $@

# Go's build cache decides whether these are stale: it tracks every input
# (sources, embedded files, build flags) where make could only guess.
$(PLUGIN_BIN): FORCE
	$(GO) build -o $@ ./plugin

$(LOCALNET): FORCE
	$(GO) build -o $@ ./scripts/localnet/cmd/avadata-localnet

$(CREATECHAIN): FORCE
	$(GO) build -o $@ ./scripts/chaincreate/cmd/avadata-createchain

# The node loads the plugin from <plugin-dir>/<VMID>. Install it only when it
# changed, and by rename: a running node keeps the old file open, and cp onto
# an executable in use fails.
plugin: $(PLUGIN_BIN)
	@mkdir -p $(PLUGIN_DIR)
	@vmid=$$($(PLUGIN_BIN) vmid) && [ -n "$$vmid" ] || { echo "'$(PLUGIN_BIN) vmid' printed no VM ID" >&2; exit 1; }; \
	if ! cmp -s $(PLUGIN_BIN) $(PLUGIN_DIR)/$$vmid; then \
		cp $(PLUGIN_BIN) $(PLUGIN_DIR)/.$$vmid.tmp && mv -f $(PLUGIN_DIR)/.$$vmid.tmp $(PLUGIN_DIR)/$$vmid && \
		echo "installed $(PLUGIN_DIR)/$$vmid"; \
	fi

# exec: the command replaces the shell, so the SIGTERM make forwards on its
# own termination reaches it and it stops the node.
run: build
	exec $(LOCALNET) --avalanchego=$(AVALANCHEGO) --plugin-dir=$(PLUGIN_DIR) \
		--data-dir=$(DATA_DIR) --http-port=$(HTTP_PORT) --staking-port=$(STAKING_PORT) $(RUN_FLAGS)

clean:
	rm -rf $(BUILD)

# The local network's data (chain, indexes); `make run` creates it afresh.
clean-localnet:
	rm -rf $(DATA_DIR)

# The unit tests of scripts/localnet start real nodes too, so everything is
# built first; -count=1 because those results depend on the built binaries.
test: build test-unit test-e2e

test-unit:
	$(GO) test -count=1 ./plugin/... ./vm/... ./indexer/... ./handlers/... ./aggregator/... ./scripts/...

test-e2e: build
	$(GO) test -count=1 -timeout 25m ./tests/e2e/...

# Benchmarks: results go in the issue notes; nothing is asserted on speed.
# The e2e one needs real C-chain blocks (AVADATA_BENCH_C_BLOCKS, default 30,
# ~2 s each on a local node).
bench: build
	$(GO) test -run '^$$' -bench . -benchmem ./indexer/...
	$(GO) test -count=1 -run '^$$' -bench . -benchtime 20x -timeout 30m ./tests/e2e/...

FORCE:
