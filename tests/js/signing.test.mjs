import { test } from "node:test";
import assert from "node:assert/strict";
import { pk, fixture, rejectsWith } from "./helpers.mjs";

const vectors = JSON.parse(fixture("vectors/signing.json"));
const creds = {
  address: "0x9fB0aE0C6E3B0a1C2d3E4f5A6b7C8d9E0F1a2B3c",
  apiKey: "0f5c2a1e-7b3d-4c8e-9a6f-1d2e3f4a5b6c",
  secret: "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=",
  passphrase: "a3f1c2d4e5b60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f90",
};

test("signRequest matches every signing vector", () => {
  assert.ok(vectors.cases.length >= 9);
  for (const c of vectors.cases) {
    const got = pk.signRequest(c.secret, c.timestamp, c.method, c.requestPath, c.body ?? undefined);
    assert.equal(got, c.signature, JSON.stringify(c));
  }
});

test("signRequest rejects invalid secrets by field, without echoing them", async () => {
  assert.ok(vectors.invalid_secrets.length > 0, "the invalid-secret vectors are there");
  for (const secret of vectors.invalid_secrets) {
    const e = await rejectsWith(assert, () => pk.signRequest(secret, 1, "GET", "/"), "INVALID_PARAMS");
    assert.equal(e.param, "secret");
    if (secret) assert.ok(!e.message.includes(secret));
  }
});

test("createL2Headers gives the five SERVICE_* headers", () => {
  const h = pk.createL2Headers(creds, { method: "DELETE", requestPath: "/order", body: '{"orderId":"0xabc"}' }, 1700000000000);
  assert.deepEqual(Object.keys(h).sort(), [
    "SERVICE_ADDRESS", "SERVICE_API_KEY", "SERVICE_PASSPHRASE", "SERVICE_SIGNATURE", "SERVICE_TIMESTAMP",
  ]);
  assert.equal(h.SERVICE_ADDRESS, creds.address);
  assert.equal(h.SERVICE_API_KEY, creds.apiKey);
  assert.equal(h.SERVICE_PASSPHRASE, creds.passphrase);
  assert.equal(h.SERVICE_TIMESTAMP, "1700000000000");
  assert.equal(h.SERVICE_SIGNATURE, "Vvcf1hhOxX0xMZm9j2vMVYxsjXBPuPa5W7yZclFBcPc=");
  const now = pk.createL2Headers(creds, { method: "GET", requestPath: "/data/orders" });
  assert.ok(Math.abs(Number(now.SERVICE_TIMESTAMP) - Date.now()) < 60_000);
});

test("createL2Headers validates credentials and arguments", async () => {
  const bad = [
    [{ ...creds, address: "0x12" }, "address"],
    [{ ...creds, apiKey: "key" }, "apiKey"],
    [{ ...creds, passphrase: "short" }, "passphrase"],
    [{ ...creds, secret: "%%%" }, "secret"],
  ];
  for (const [c, field] of bad) {
    const e = await rejectsWith(assert, () => pk.createL2Headers(c, { method: "GET", requestPath: "/" }), "INVALID_PARAMS");
    assert.equal(e.param, field);
  }
  await rejectsWith(assert, () => pk.createL2Headers(creds, { method: "GET" }), "INVALID_PARAMS");
  await rejectsWith(assert, () => pk.createL2Headers(creds, { method: "GET", requestPath: "/" }, -5), "INVALID_PARAMS");
});
