#!/usr/bin/env node
// The official Data API client (@avalanche-sdk/chainkit, pinned in
// package.json) run unmodified against a base URL: the only thing changed
// from a stock client is where it sends requests (the per-call serverURL,
// because the SDK ignores a client-level one), plus what a test run needs
// offline: telemetry off (its un-caught PostHog fetch kills Node without a
// network) and retries off (a 5XX would otherwise be retried for 120 s).
//
//   node conformance.mjs catalog        every SDK function: its method, operationId, HTTP route, success status
//   node conformance.mjs run input.json the calls of input.json, one report line per call
//   node conformance.mjs validate-webhooks input.json
//                                       each delivery of input.json through the SDK's validateWebhook
//
// input.json: { "baseURL": "http://127.0.0.1:9650/ext/bc/data", "apiKey": "k" (optional),
//   "maxPages": 3, "cases": [ case, ... ] } where a case is
//   { "name": "unique label", "func": "dataEvmBlocksGet" (an SDK function name, src/funcs),
//     "request": { ...the SDK request object... },
//     "apiKey": true            send the input's API key (x-glacier-api-key, the SDK's header),
//     "key": "k"                send this API key instead of the input's (a key that may only read),
//     "maxPages": 5             paginated calls follow nextPageToken up to this many pages,
//     "requestFrom": { "case": "earlier case", "path": "operationId", "param": "operationId" }
//                               fill request[param] from an earlier case's result,
//     "pollUntil": { "path": "operationStatus", "notIn": ["RUNNING"], "timeoutMs": 60000, "intervalMs": 500 }
//                               repeat the call until the result's value at path leaves notIn,
//     "keepPages": true         report every page's parsed result (pageResults), not only the first's }
//
// Both print one JSON document on stdout. A run's report has, per case:
// outcome "ok" | "typed-error" (BadRequestError, NotFoundError, ...: the
// error body parsed) | "response-validation" (a 2XX or error body that is
// not the SDK's schema; issues lists every Zod issue with its path, a union
// as the issues of each member) | "sdk-validation" (the SDK refused the
// request before sending it) | "api-error" (an undeclared status or content
// type) | "other" (transport errors, bad JSON, anything else); pages and
// items (the length of the result's arrays over every page); droppedKeys:
// the raw JSON keys the parsed result lost (Zod strips unknown keys, so a
// body that matched the wrong member of a union loses data silently); and
// the first page's parsed result.
//
// Where the project's spec deliberately overrides SDK 0.3.13 (metadata
// indexStatus lower case, Price/Money value a decimal string), the SDK
// rejects the whole body and so would hide everything else in it, and every
// page after the first. So a call that ends in a ResponseValidationError is
// made once more with those fields, and only those, rewritten to the SDK's
// form on the way in (specOverrides below); the report's "overridden" holds
// that second run, with the paths it rewrote. Only a broken input or SDK
// makes the script exit non-zero: judging the outcomes is the caller's job.

import { readFileSync, readdirSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

import { Avalanche, HTTPClient } from "@avalanche-sdk/chainkit";
import * as errors from "@avalanche-sdk/chainkit/models/errors";

const require = createRequire(import.meta.url);
const sdkPackageJSON = require.resolve("@avalanche-sdk/chainkit/package.json");
const sdkDir = path.dirname(sdkPackageJSON);
const sdkVersion = JSON.parse(readFileSync(sdkPackageJSON, "utf8")).version;

// newClient makes the SDK client as the tests use it. network and chainId
// are only the SDK's fallbacks for calls that omit them (without them a
// call that omits its chain throws a plain Error); every case names its
// chain.
function newClient(httpClient, apiKey) {
  return new Avalanche({
    enableTelemetry: false,
    retryConfig: { strategy: "none" },
    timeoutMs: 30000,
    network: "fuji",
    chainId: "43113",
    httpClient,
    ...(apiKey ? { apiKey } : {}),
  });
}

// methodsByFunc maps each SDK function (src/funcs) to the method a user
// calls (data.evm.blocks.get), found by walking the client's sub-SDK
// getters and reading which function each method's compiled body calls.
function methodsByFunc() {
  const client = newClient(new HTTPClient(), undefined);
  const out = new Map();
  const walk = (obj, prefix) => {
    const seen = new Set();
    for (let proto = Object.getPrototypeOf(obj); proto && proto !== Object.prototype; proto = Object.getPrototypeOf(proto)) {
      if (proto.constructor.name === "ClientSDK") break;
      for (const [key, d] of Object.entries(Object.getOwnPropertyDescriptors(proto))) {
        if (key === "constructor" || seen.has(key)) continue;
        seen.add(key);
        const name = prefix ? `${prefix}.${key}` : key;
        if (d.get) walk(obj[key], name);
        else if (typeof d.value === "function") {
          const m = /\b([a-z][A-Za-z0-9]*)\(\s*this\s*,/.exec(d.value.toString());
          if (m) out.set(m[1], name);
        }
      }
    }
  };
  walk(client, "");
  return out;
}

// catalog describes every SDK function from its compiled source.
function catalog() {
  const dir = path.join(sdkDir, "dist", "esm", "funcs");
  const methods = methodsByFunc();
  const functions = [];
  for (const file of readdirSync(dir).filter((f) => f.endsWith(".js")).sort()) {
    const func = file.slice(0, -3);
    const src = readFileSync(path.join(dir, file), "utf8");
    const pick = (re) => (re.exec(src) || [])[1];
    const success = pick(/M\.(?:json|nil)\((\d+)/);
    functions.push({
      func,
      method: methods.get(func) ?? "",
      operationId: pick(/operationID: "([^"]*)"/) ?? "",
      httpMethod: pick(/method: "([A-Z]+)"/) ?? "",
      path: pick(/pathToFunc\("([^"]*)"\)/) ?? "",
      successStatus: success ? Number(success) : 0,
      paginated: /nextPageToken/.test(src),
    });
  }
  return { sdkVersion, functions };
}

// callable resolves a dotted method path on the client.
function callable(client, method) {
  const parts = method.split(".");
  let owner = client;
  for (const p of parts.slice(0, -1)) owner = owner[p];
  const fn = owner?.[parts.at(-1)];
  if (typeof fn !== "function") throw new Error(`no SDK method ${method}`);
  return fn.bind(owner); // keeps fn.length
}

// zodIssues flattens a ZodError's issues; a union's are kept per member, so
// the caller can tell which member came closest.
function zodIssues(err) {
  const one = (i) => {
    const out = { path: i.path, code: i.code, message: i.message };
    if (i.code === "invalid_union" && Array.isArray(i.unionErrors)) {
      out.unionMembers = i.unionErrors.map((u) => (u.issues || []).map(one));
    }
    return out;
  };
  return Array.isArray(err?.issues) ? err.issues.map(one) : [];
}

// droppedKeys lists the paths of raw JSON keys that the parsed value lacks
// (array indexes written []), each once.
function droppedKeys(raw, parsed, prefix = "", out = new Set()) {
  if (Array.isArray(raw)) {
    if (!Array.isArray(parsed)) return out;
    raw.forEach((v, i) => droppedKeys(v, parsed[i], `${prefix}[]`, out));
  } else if (raw !== null && typeof raw === "object") {
    if (parsed === null || typeof parsed !== "object") return out;
    for (const [k, v] of Object.entries(raw)) {
      const p = prefix ? `${prefix}.${k}` : k;
      if (!(k in parsed) || (parsed[k] === undefined && v !== undefined)) out.add(p);
      else droppedKeys(v, parsed[k], p, out);
    }
  }
  return out;
}

// countItems sums the lengths of a result's top-level arrays.
function countItems(result) {
  if (result === null || typeof result !== "object") return 0;
  return Object.values(result).reduce((n, v) => n + (Array.isArray(v) ? v.length : 0), 0);
}

function valueAt(obj, dotted) {
  return dotted.split(".").reduce((o, k) => (o == null ? undefined : o[k]), obj);
}

// classify turns what a call threw into the report's terms. The order
// matters: SDKValidationError's instanceof is also true of a
// ResponseValidationError.
function classify(e) {
  if (e instanceof errors.ResponseValidationError) {
    return {
      outcome: "response-validation", errorClass: e.name, status: e.statusCode,
      message: String(e.rawMessage ?? e.message), issues: zodIssues(e.cause), body: e.body,
    };
  }
  if (e instanceof errors.SDKValidationError) {
    return { outcome: "sdk-validation", errorClass: e.name, message: e.message, issues: zodIssues(e.cause) };
  }
  if (e instanceof errors.AvalancheAPIError) {
    return { outcome: "api-error", errorClass: e.name, status: e.statusCode, message: e.message, body: e.body };
  }
  if (e instanceof errors.AvalancheError) {
    return {
      outcome: "typed-error", errorClass: e.name, status: e.statusCode, message: e.message,
      errorBody: e.data$ ? { message: e.data$.message, statusCode: e.data$.statusCode, error: e.data$.error } : null,
      body: e.body,
    };
  }
  return { outcome: "other", errorClass: e?.name ?? typeof e, message: String(e?.message ?? e) };
}

// The keys whose object is a Price (the SDK's Money).
const moneyKeys = new Set(["price", "balanceValue", "currentPrice", "historicalPrice"]);

// specOverrides rewrites, in place, the fields where the spec overrides
// the SDK to the SDK's form: indexStatus upper case, a Money's value a
// number, and an active validator's uptimePerformance and stakePercentage,
// which avadata omits where the node has no figure (never invented), put
// in as 0. It adds each rewritten path (array indexes written []) to done
// and returns how many fields it rewrote.
// activeValidatorFigures are the figures an active validator omits where
// the node has none (see specOverrides).
const activeValidatorFigures = ["uptimePerformance", "stakePercentage"];

function specOverrides(v, prefix, done) {
  if (Array.isArray(v)) {
    return v.reduce((n, x) => n + specOverrides(x, `${prefix}[]`, done), 0);
  }
  if (v === null || typeof v !== "object") return 0;
  let n = 0;
  if (v.validationStatus === "active" && "validatorHealth" in v) {
    for (const k of activeValidatorFigures) {
      if (!(k in v)) {
        v[k] = 0;
        done.add(prefix ? `${prefix}.${k}` : k);
        n++;
      }
    }
  }
  for (const [k, x] of Object.entries(v)) {
    const p = prefix ? `${prefix}.${k}` : k;
    if (k === "indexStatus" && typeof x === "string" && x !== x.toUpperCase()) {
      v[k] = x.toUpperCase();
      done.add(p);
      n++;
    } else if (moneyKeys.has(k) && x && typeof x === "object" && typeof x.value === "string") {
      x.value = Number(x.value);
      done.add(`${p}.value`);
      n++;
    } else {
      n += specOverrides(x, p, done);
    }
  }
  return n;
}

// overridingFetcher is fetch, except that while on() is true it passes JSON
// bodies through specOverrides.
function overridingFetcher(on, done) {
  return async (input, init) => {
    const res = await (init == null ? fetch(input) : fetch(input, init));
    const nullBody = [101, 204, 205, 304].includes(res.status);
    if (!on() || nullBody || !(res.headers.get("content-type") || "").includes("json")) return res;
    const text = await res.text();
    let body;
    try { body = JSON.parse(text); } catch { body = undefined; }
    const rewrote = body === undefined ? 0 : specOverrides(body, "", done);
    const headers = new Headers(res.headers);
    headers.delete("content-length");
    const out = rewrote > 0 ? JSON.stringify(body) : text;
    return new Response(out, { status: res.status, statusText: res.statusText, headers });
  };
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function run(inputFile) {
  const input = JSON.parse(readFileSync(inputFile, "utf8"));
  if (!input.baseURL || !Array.isArray(input.cases)) throw new Error(`${inputFile}: needs baseURL and cases`);
  const methods = methodsByFunc();
  const ops = new Map(catalog().functions.map((f) => [f.func, f]));

  // Every response's raw text, in order, so each page can be diffed with
  // what the SDK made of it.
  let raws = [];
  let overriding = false;
  const overridden = new Set();
  const httpClient = new HTTPClient({ fetcher: overridingFetcher(() => overriding, overridden) });
  httpClient.addHook("response", async (res) => {
    raws.push(await res.clone().text());
  });
  const plain = newClient(httpClient, undefined);
  const keyed = input.apiKey ? newClient(httpClient, input.apiKey) : plain;
  const options = { serverURL: input.baseURL };

  const results = [];
  const byName = new Map();
  for (const c of input.cases) {
    const op = ops.get(c.func);
    const method = methods.get(c.func);
    const report = { name: c.name, func: c.func, method: method ?? "", operationId: op?.operationId ?? "" };
    results.push(report);
    if (!op || !method) {
      Object.assign(report, { outcome: "other", errorClass: "NoSuchFunction", message: `SDK ${sdkVersion} has no function ${c.func}` });
      continue;
    }
    const request = structuredClone(c.request ?? {});
    if (c.requestFrom) {
      const from = byName.get(c.requestFrom.case);
      const v = from && valueAt(from.result, c.requestFrom.path);
      if (v === undefined) {
        Object.assign(report, { outcome: "other", errorClass: "MissingInput", message: `no ${c.requestFrom.path} in the result of ${c.requestFrom.case}` });
        continue;
      }
      request[c.requestFrom.param] = v;
    }
    const client = c.key ? newClient(httpClient, c.key) : c.apiKey ? keyed : plain;
    const fn = callable(client, method);
    // A method without a request (the health checks) takes only the options.
    const call = fn.length < 2 ? (_, opts) => fn(opts) : fn;
    const maxPages = c.maxPages ?? input.maxPages ?? 3;
    const started = Date.now();
    const deadline = started + (c.pollUntil?.timeoutMs ?? 0);
    let polls = 0;
    let outcome;
    const once = () => {
      raws = [];
      return callOnce(call, request, options, op.paginated, maxPages, () => raws, c.keepPages);
    };
    for (;;) {
      polls++;
      outcome = await once();
      const waiting = c.pollUntil && outcome.outcome === "ok" &&
        c.pollUntil.notIn.includes(valueAt(outcome.result, c.pollUntil.path));
      if (!waiting || Date.now() > deadline) break;
      await sleep(c.pollUntil.intervalMs ?? 500);
    }
    Object.assign(report, outcome, { request, durationMs: Date.now() - started });
    if (c.pollUntil) report.polls = polls;
    if (outcome.outcome === "response-validation") {
      overriding = true;
      overridden.clear();
      try {
        report.overridden = await once();
      } finally {
        overriding = false;
      }
      report.overridden.rewrote = [...overridden];
    }
    byName.set(c.name, report);
    process.stderr.write(`${report.outcome.padEnd(19)} ${c.func} ${c.name}\n`);
  }
  return { sdkVersion, baseURL: input.baseURL, results };
}

// callOnce makes one call (following pages up to maxPages) and reports it.
async function callOnce(call, request, options, paginated, maxPages, rawsNow, keepPages) {
  const out = { pages: 0, items: 0, droppedKeys: [], result: null };
  if (keepPages) out.pageResults = [];
  const dropped = new Set();
  const diff = (parsed) => {
    const text = rawsNow().at(-1);
    if (text === undefined || text === "") return;
    let raw;
    try { raw = JSON.parse(text); } catch { return; }
    for (const k of droppedKeys(raw, parsed)) dropped.add(k);
  };
  try {
    const first = await call(request, options);
    if (!paginated) {
      out.pages = 1;
      out.result = first ?? null;
      out.items = countItems(first);
      if (first !== undefined) diff(first);
      if (keepPages) out.pageResults.push(first ?? null);
    } else {
      for await (const page of first) {
        out.pages++;
        if (out.pages === 1) out.result = page.result;
        out.items += countItems(page.result);
        diff(page.result);
        if (keepPages) out.pageResults.push(page.result);
        if (out.pages >= maxPages) {
          out.morePages = typeof page.result?.nextPageToken === "string" && page.result.nextPageToken !== "";
          break;
        }
      }
    }
    out.outcome = "ok";
  } catch (e) {
    Object.assign(out, classify(e));
  }
  out.droppedKeys = [...dropped];
  return out;
}

// validateWebhooks checks webhook deliveries as a receiver using the SDK
// would. input.json: { "secret": "the shared secret", "deliveries": [
//   { "body": "base64 of the body's bytes as received", "signature": "its x-signature header" }, ... ] }.
// Per delivery: validateWebhook ("ok", or the error's class and message:
// a WebhookAuthenticationError is a bad signature; an SDKValidationError
// after a good one means the body is not an address_activity payload,
// the only one the SDK parses), and WebhookSecurity.verify alone, the
// signature check without the payload schema ("ok" or the error).
async function validateWebhooks(file) {
  const input = JSON.parse(readFileSync(file, "utf8"));
  const { WebhookSecurity } = await import("@avalanche-sdk/chainkit/hooks/webhook-security.js");
  const sdk = new Avalanche({ enableTelemetry: false });
  const describe = (e) => `${e?.constructor?.name ?? "Error"}: ${e?.message ?? e}`;
  const results = [];
  for (const d of input.deliveries) {
    const request = () =>
      new Request("http://receiver.invalid/hook", {
        method: "POST",
        body: Buffer.from(d.body, "base64"),
        headers: { "content-type": "application/json", "x-signature": d.signature },
      });
    const out = {};
    try {
      const parsed = await sdk.validateWebhook({ request: request(), secret: input.secret });
      out.validateWebhook = "ok";
      out.eventType = parsed?.eventType;
    } catch (e) {
      out.validateWebhook = describe(e);
    }
    try {
      await new WebhookSecurity().verify({ request: request(), secret: input.secret });
      out.verify = "ok";
    } catch (e) {
      out.verify = describe(e);
    }
    results.push(out);
  }
  return { sdkVersion, results };
}

async function main() {
  const [mode, arg] = process.argv.slice(2);
  let doc;
  if (mode === "catalog") doc = catalog();
  else if (mode === "run" && arg) doc = await run(arg);
  else if (mode === "validate-webhooks" && arg) doc = await validateWebhooks(arg);
  else {
    process.stderr.write("usage: node conformance.mjs catalog | run input.json | validate-webhooks input.json\n");
    process.exit(2);
  }
  process.stdout.write(JSON.stringify(doc, null, 1) + "\n");
}

main().catch((e) => {
  process.stderr.write(`conformance: ${e?.stack ?? e}\n`);
  process.exit(1);
});
