# avadata: build the node and the plugin, run a local network, run the tests.
# GNU make. `make run` brings up a local node with the avadata chain.

GO           ?= go
BUILD        := build
AVALANCHEGO  := $(BUILD)/avalanchego
PLUGIN_BIN   := $(BUILD)/avadata
PLUGIN_DIR   := $(BUILD)/plugins
LOCALNET     := $(BUILD)/avadata-localnet
CREATECHAIN  := $(BUILD)/avadata-createchain
# subnet-evm at the node's version, for the local network's second EVM
# chain. Its VM ID is avalanchego's constants.SubnetEVMID (checked by
# scripts/localnet's unit tests); the binary has no command that prints it.
SUBNET_EVM_BIN  := $(BUILD)/subnet-evm
SUBNET_EVM_VMID := srEXiWaHuhNyGwPUi444Tu47ZEDwxTWrbQiuD7FmgSAQ6X7Dy
SUBNET_EVM_MOD  := scripts/subnetevm

# `make run` settings; override on the command line, e.g. make run HTTP_PORT=9750.
DATA_DIR     ?= .localnet
HTTP_PORT    ?= 9650
STAKING_PORT ?= 9651
RUN_FLAGS    ?=
# Extra node flags, e.g. make run NODE_FLAGS='--min-stake-duration=1m'.
NODE_FLAGS   ?=
# A data dir not seeded yet gets sample activity on P, X and C (and the
# examples that show it); SEED=0 skips that.
SEED         ?= 1
# NODES=5 runs the local network with the five validators its genesis names,
# sybil protection on: node 1 on the ports above hosts avadata, nodes 2-5 take
# the next ports (9652/9653 ... 9658/9659) and live in DATA_DIR/nodes. A data
# dir keeps the node count it was made with.
NODES        ?= 1
# The validators' keys ship with the node's module (staking/local); asked of
# go only when NODES is not 1.
LOCAL_STAKING_DIR = $(shell $(GO) list -m -f '{{.Dir}}' github.com/ava-labs/avalanchego)/staking/local

.PHONY: all build plugin run clean clean-localnet test test-unit test-e2e bench FORCE
.PHONY: test-e2e-evm test-e2e-primary test-e2e-sigagg test-e2e-operator test-e2e-nodeapi test-e2e-adopt
.PHONY: test-e2e-metrics test-e2e-webhooks

all: build

build: $(AVALANCHEGO) plugin subnet-evm-plugin $(LOCALNET) $(CREATECHAIN)

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

# subnet-evm is built from its own tiny module, so its dependencies never
# enter the plugin's go.mod. Its main (see there why it is not subnet-evm's
# own) and the pinned versions are all that can make it stale.
$(SUBNET_EVM_BIN): $(SUBNET_EVM_MOD)/go.mod $(SUBNET_EVM_MOD)/go.sum $(SUBNET_EVM_MOD)/main.go
	$(GO) -C $(SUBNET_EVM_MOD) build -o $(CURDIR)/$@ .
	@touch $@

# Installed like the avadata plugin: only when changed, and by rename.
.PHONY: subnet-evm-plugin
subnet-evm-plugin: $(SUBNET_EVM_BIN)
	@mkdir -p $(PLUGIN_DIR)
	@if ! cmp -s $(SUBNET_EVM_BIN) $(PLUGIN_DIR)/$(SUBNET_EVM_VMID); then \
		cp $(SUBNET_EVM_BIN) $(PLUGIN_DIR)/.$(SUBNET_EVM_VMID).tmp && \
		mv -f $(PLUGIN_DIR)/.$(SUBNET_EVM_VMID).tmp $(PLUGIN_DIR)/$(SUBNET_EVM_VMID) && \
		echo "installed $(PLUGIN_DIR)/$(SUBNET_EVM_VMID) (subnet-evm)"; \
	fi

# exec: the command replaces the shell, so the SIGTERM make forwards on its
# own termination reaches it and it stops the node.
run: build
	exec $(LOCALNET) --avalanchego=$(AVALANCHEGO) --plugin-dir=$(PLUGIN_DIR) \
		--data-dir=$(DATA_DIR) --http-port=$(HTTP_PORT) --staking-port=$(STAKING_PORT) \
		--node-flags='$(NODE_FLAGS)' --seed=$(SEED) --nodes=$(NODES) \
		$(if $(filter-out 1,$(NODES)),--local-staking-dir=$(LOCAL_STAKING_DIR)) $(RUN_FLAGS)

clean:
	rm -rf $(BUILD)

# The local network's data (chain, indexes); `make run` creates it afresh.
clean-localnet:
	rm -rf $(DATA_DIR)

# Everything: the build, the unit tests, then every end-to-end domain.
test: build test-unit test-e2e

# The unit tests start no node. The tests that do live in tests/e2e/<domain>
# and tests/nodeapi, or, beside the code they test, carry the e2e build tag
# (scripts/localnet, indexer/evmchain) and run with their domain's target.
# The fuzz test of the HTTP layer runs for a bounded time: no panic, no 5xx,
# the spec's error body on every non-2xx reply, valid JSON-RPC from /rpc.
test-unit:
	$(GO) test -count=1 ./plugin/... ./vm/... ./indexer/... ./handlers/... \
		./aggregator/... ./scripts/... ./tests/badpeer/... ./tests/contracts/... ./tests/evmtest/... ./tests/e2e/harness/
	$(GO) test -count=1 -run '^$$' -fuzz '^FuzzRouter$$' -fuzztime 15s ./handlers/

# The end-to-end tests against real nodes, one domain per target; test
# names carry their domain (TestEVM..., TestPrimary..., TestSigAgg...,
# TestOperator..., TestNodeAPI...). TEST selects tests by name (the -run
# regexp), e.g. make test-e2e-evm TEST=Paging, make test-e2e TEST=Kill.
# One package runs at a time (-p 1): the nodes of two would share the
# machine's cores. -count=1 because the results depend on the built
# binaries, which go test does not track.
TEST     ?= .
E2E_TEST  = $(GO) test -count=1 -p 1 -timeout 25m -tags e2e -run '$(TEST)'

# The explorer's tests drive Debian's Chromium (tests/e2e/harness/browser.go);
# a machine without it gets it from Debian's packages (needs root, as CI has).
CHROMIUM ?= /usr/bin/chromium
.PHONY: browser
browser:
	@if [ ! -x $(CHROMIUM) ]; then \
		echo "installing Debian's chromium for the explorer's browser tests"; \
		{ apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium; } || \
		{ echo "could not install chromium: run apt-get install chromium as root"; exit 1; }; \
	fi

# Each domain's packages: EVM chains (tests/e2e/evm, and the real-node test
# of indexer/evmchain); the primary network, staking and L1s; signature
# aggregation; what an operator meets (make run and its seed, health,
# metrics, rate limits, replicas, bad input, the local network's
# bring-up); avalanchego's own APIs on the node that hosts avadata.
E2E_EVM      := ./tests/e2e/evm/ ./indexer/evmchain/
E2E_PRIMARY  := ./tests/e2e/primary/
E2E_SIGAGG   := ./tests/e2e/sigagg/
E2E_OPERATOR := ./tests/e2e/operator/ ./scripts/localnet/...
E2E_NODEAPI  := ./tests/nodeapi/
E2E_ADOPT    := ./tests/e2e/adopt/
# The Metrics API: EVM chain metrics against a recomputation from the nodes'
# JSON-RPC, kill -9, bad input, staking and L1 fee series, the SDK's metrics.*.
E2E_METRICS  := ./tests/e2e/metrics/
# Webhooks: the management API, every event kind from real activity, the
# SDK's validateWebhook, delivery across kill -9 and failing receivers.
E2E_WEBHOOKS := ./tests/e2e/webhooks/

test-e2e: build browser
	$(E2E_TEST) $(E2E_NODEAPI) $(E2E_OPERATOR) $(E2E_PRIMARY) $(E2E_EVM) $(E2E_SIGAGG) $(E2E_ADOPT) $(E2E_METRICS) $(E2E_WEBHOOKS)

test-e2e-evm: build browser
	$(E2E_TEST) $(E2E_EVM)

test-e2e-primary: build browser
	$(E2E_TEST) $(E2E_PRIMARY)

test-e2e-sigagg: build
	$(E2E_TEST) $(E2E_SIGAGG)

test-e2e-operator: build browser
	$(E2E_TEST) $(E2E_OPERATOR)

test-e2e-nodeapi: build
	$(E2E_TEST) $(E2E_NODEAPI)

test-e2e-adopt: build
	$(E2E_TEST) $(E2E_ADOPT)

test-e2e-metrics: build
	$(E2E_TEST) $(E2E_METRICS)

test-e2e-webhooks: build
	$(E2E_TEST) $(E2E_WEBHOOKS)

# The official SDK (@avalanche-sdk/chainkit, tests/sdk) against the shared
# networks' avadata: every EVM operation on both EVM chains
# (TestEVMSDKConformance of make test-e2e-evm) and every primary-network
# operation on P, X and C (TestPrimarySDKConformance of make
# test-e2e-primary), alone. It installs the SDK with npm ci on first use
# (needs node and npm).
# Also every Metrics API operation (TestMetricsSDKConformance of make test-e2e-metrics)
# and the ten webhooks.* calls (TestWebhooksSDKConformance of make test-e2e-webhooks).
.PHONY: test-sdk
test-sdk: build
	$(GO) test -count=1 -p 1 -timeout 25m -tags e2e -run 'SDK' ./tests/e2e/evm/ ./tests/e2e/primary/ ./tests/e2e/metrics/ ./tests/e2e/webhooks/

# Benchmarks: results go in the issue notes; nothing is asserted on speed.
# The store ones index AVADATA_BENCH_TXS synthetic transactions (default
# 100k; the issue's figure is 1M). The e2e catch-up one makes
# AVADATA_BENCH_BLOCKS real blocks (default 2000) on the local subnet-evm
# chain, then (EVMCatchUpFullBlocks, same line) AVADATA_BENCH_FULL_BLOCKS
# full blocks (default 200) of AVADATA_BENCH_BLOCK_TXS txs each (default
# 150, at least 100; mostly ERC-20 transfers), fetched AVADATA_BENCH_FULL_BATCH
# a range (default 8), and times the follower and fetch-only over each,
# alternating (blocks/s, tx/s, CPU per block, ratio); the latency one times
# 100 transactions per EVM chain (the C-chain's
# take ~2 s each). The HTTP one serves AVADATA_BENCH_HTTP_TXS synthetic
# transactions (default 1M) to 32 clients (address pages, tx by hash, the
# ERC-20 balances of an address holding 100 tokens, the trivial route), next
# to the node's own eth_getTransactionByHash.
# The primary HTTP one serves, on a network of its own, an X-chain
# address's 10k UTXOs (first and 50th page of 100), listValidators over
# 2,000 validators with filters and getTxByHash to 32 clients, next to the
# trivial route; its UTXOs and validators are real txs (the 2,000
# validators take the P-chain about six minutes).
# The signature aggregation one starts a 5-validator network and times the
# quorum for fresh and cached messages, one client and 16.
# The webhooks one times, per EVM transaction, its block's acceptance to its
# address_activity delivery at a receiver on loopback.
# The explorer one (bench-explorer; no node) serves every explorer page type
# from a real store of AVADATA_BENCH_EXPLORER_TXS synthetic EVM transactions
# (default 1M) through the whole HTTP layer, AVADATA_BENCH_PAGE_REQS requests
# a page (default 200) at one client and four and over loopback, and prints
# a table of each page's server time, bytes, CPU and allocations; a page the
# build lacks shows as missing. AVADATA_BENCH_EXPLORER_DIR keeps the store
# there for the next run of the same size (the fill takes about a minute).
bench: build
	$(GO) test -run '^$$' -bench . -benchmem ./indexer/...
	$(GO) test -count=1 -run '^$$' -bench 'EVMCatchUp' -benchtime 3x -timeout 30m ./tests/e2e/evm/
	$(GO) test -count=1 -run '^$$' -bench 'PrimaryCatchUp' -benchtime 3x -timeout 30m ./tests/e2e/primary/
	$(GO) test -count=1 -run '^$$' -bench 'AcceptedToQueryable' -benchtime 100x -timeout 30m ./tests/e2e/evm/
	$(GO) test -count=1 -run '^$$' -bench 'HTTPRoutes' -benchtime 1x -timeout 30m ./tests/e2e/evm/
	$(GO) test -count=1 -run '^$$' -bench 'PrimaryHTTPRoutes' -benchtime 1x -timeout 40m ./tests/e2e/primary/
	$(GO) test -count=1 -run '^$$' -bench 'SigAgg' -timeout 30m ./tests/e2e/sigagg/
	$(GO) test -count=1 -run '^$$' -bench 'WebhooksLatency' -benchtime 100x -timeout 30m ./tests/e2e/webhooks/
	$(MAKE) bench-explorer

.PHONY: bench-explorer
bench-explorer:
	$(GO) test -count=1 -run '^$$' -bench 'ExplorerPages' -benchtime 1x -timeout 60m ./handlers/explorer/

# The test contracts' artifacts (tests/contracts/artifacts) are committed;
# rebuild them after changing tests/contracts/src. Needs node and npm; not
# part of make test, which must not fetch anything.
.PHONY: contracts
contracts:
	bash tests/contracts/compile.sh

FORCE:
