#!/usr/bin/env bash
# Compiles tests/contracts/src/*.sol into tests/contracts/artifacts/<Name>.json
# ({"abi", "bytecode", "deployedBytecode"}), which the Go package embeds.
#
# The artifacts are committed: tests must not fetch anything, and CI has no
# compiler. Run this (make contracts) only after changing a .sol file.
#
# The compiler and OpenZeppelin come from npm at pinned versions, installed
# into a temporary directory so the repo holds no node_modules. The EVM
# version is paris (no PUSH0), so the bytecode runs on any EVM chain.
set -euo pipefail

SOLC_VERSION=0.8.28
OZ_VERSION=4.9.6
EVM_VERSION=paris

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
for tool in node npm; do
	command -v "$tool" >/dev/null || { echo "compile.sh: $tool not found (Debian: apt-get install -y nodejs npm)" >&2; exit 1; }
done

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

echo "installing solc@$SOLC_VERSION and @openzeppelin/contracts@$OZ_VERSION into $work"
(cd "$work" && npm init -y >/dev/null &&
	npm install --no-audit --no-fund --loglevel=error --save-exact \
		"solc@$SOLC_VERSION" "@openzeppelin/contracts@$OZ_VERSION" >/dev/null)

# solc-js resolves imports through a callback; it is given the temporary
# node_modules, so "@openzeppelin/contracts/..." imports resolve there.
cat >"$work/compile.js" <<'JS'
const fs = require("fs");
const path = require("path");
const solc = require("solc");

const [srcDir, outDir, evmVersion, wantVersion] = process.argv.slice(2);
const modules = path.join(__dirname, "node_modules");

if (!solc.version().startsWith(wantVersion + "+")) {
  throw new Error(`solc is ${solc.version()}, want ${wantVersion}`);
}

const sources = {};
for (const f of fs.readdirSync(srcDir).filter((f) => f.endsWith(".sol")).sort()) {
  sources[`src/${f}`] = { content: fs.readFileSync(path.join(srcDir, f), "utf8") };
}

const input = {
  language: "Solidity",
  sources,
  settings: {
    evmVersion,
    optimizer: { enabled: true, runs: 200 },
    outputSelection: { "*": { "*": ["abi", "evm.bytecode.object", "evm.deployedBytecode.object"] } },
  },
};

function findImports(p) {
  const file = path.join(modules, p);
  if (!file.startsWith(modules + path.sep) || !fs.existsSync(file)) return { error: `not found: ${p}` };
  return { contents: fs.readFileSync(file, "utf8") };
}

const out = JSON.parse(solc.compile(JSON.stringify(input), { import: findImports }));
let failed = false;
for (const e of out.errors || []) {
  console.error(e.formattedMessage || e.message);
  if (e.severity === "error") failed = true;
}
if (failed) process.exit(1);

// Only the contracts defined in src/ get artifacts, not the OpenZeppelin ones.
fs.mkdirSync(outDir, { recursive: true });
for (const f of fs.readdirSync(outDir).filter((f) => f.endsWith(".json"))) fs.unlinkSync(path.join(outDir, f));
for (const [file, contracts] of Object.entries(out.contracts)) {
  if (!file.startsWith("src/")) continue;
  for (const [name, c] of Object.entries(contracts)) {
    const artifact = {
      abi: c.abi,
      bytecode: "0x" + c.evm.bytecode.object,
      deployedBytecode: "0x" + c.evm.deployedBytecode.object,
    };
    fs.writeFileSync(path.join(outDir, `${name}.json`), JSON.stringify(artifact, null, 2) + "\n");
    console.log(`wrote ${path.join(outDir, name + ".json")}`);
  }
}
JS

node "$work/compile.js" "$here/src" "$here/artifacts" "$EVM_VERSION" "$SOLC_VERSION"
