// Signatures against twilio-node's published test vectors, and against the official validator.
import twilio from "twilio";
import { describe, expect, it } from "vitest";
import { computeSignature, urlWithQuery, validateSignature } from "./sign.js";

const token = "12345";
const url = "https://mycompany.com/myapp.php?foo=1&bar=2";
const params = {
  CallSid: "CA1234567890ABCDE",
  Caller: "+14158675309",
  Digits: "1234",
  From: "+14158675309",
  To: "+18005551212",
};

describe("computeSignature", () => {
  it("matches Twilio's vector for a POST with a query string", () => {
    expect(computeSignature(token, url, params)).toBe("RSOYDt4T1cUTdK1PDd93/VVr8B8=");
  });

  it("signs the port when the URL carries one", () => {
    expect(computeSignature(token, "https://mycompany.com:443/myapp.php?foo=1&bar=2", params)).toBe(
      "kvajT1Ptam85bY51eRf/AJRuM3w=",
    );
    expect(computeSignature(token, "http://mycompany.com:80/myapp.php?foo=1&bar=2", params)).toBe(
      "0ZXoZLH/DfblKGATFgpif+LLRf4=",
    );
    expect(computeSignature(token, "http://mycompany.com:1234/myapp.php?foo=1&bar=2", params)).toBe(
      "Zmvh+3yNM1Phv2jhDCwEM3q5ebU=",
    );
  });

  it("sorts names by code unit (CallSid before Caller) whatever the insertion order", () => {
    const reversed = Object.fromEntries(Object.entries(params).reverse());
    expect(computeSignature(token, url, reversed)).toBe("RSOYDt4T1cUTdK1PDd93/VVr8B8=");
  });

  it("dedupes and sorts repeated values", () => {
    expect(
      computeSignature(token, url, { "MessagingBinding.Address": ["+1415xxxxxxx", "+1325xxxxxxx"] }),
    ).toBe("83O6e2vORAoJHUNzJjDWN1jz+BA=");
    expect(
      computeSignature(token, url, { Sid: "CA123", SidAccount: "AC123", Digits: ["5678", "1234", "1234"] }),
    ).toBe("IK+Dwps556ElfBT0I3Rgjkr1wJU=");
  });

  it("signs a JSON body's URL alone (bodySHA256 vector)", () => {
    const hash = "0a1ff7634d9ab3b95db5c9a2dfe9416e41502b283a80c7cf19632632f96e6620";
    expect(computeSignature(token, `${url}&bodySHA256=${hash}`, {})).toBe("a9nBmqA0ju/hNViExpshrM61xv4=");
  });

  it("signs the URL with its user info as given", () => {
    expect(computeSignature(token, "https://user:pass@mycompany.com/myapp.php?foo=1&bar=2", params)).toBe(
      "CukzLTc1tT5dXEDIHm/tKBanW10=",
    );
  });
});

describe("validateSignature", () => {
  it("accepts the signature with or without the default port, as twilio-node does", () => {
    expect(validateSignature(token, "RSOYDt4T1cUTdK1PDd93/VVr8B8=", url, params)).toBe(true);
    expect(
      validateSignature(
        token,
        "RSOYDt4T1cUTdK1PDd93/VVr8B8=",
        "https://mycompany.com:443/myapp.php?foo=1&bar=2",
        params,
      ),
    ).toBe(true);
    expect(validateSignature(token, "kvajT1Ptam85bY51eRf/AJRuM3w=", url, params)).toBe(true);
  });

  it("accepts a query the sender signed escaped when the receiver sees it unescaped", () => {
    const raw = "https://mycompany.com/myapp.php?foo=1&bar=2&Body=It's+amazing";
    expect(validateSignature(token, "TfZzewPq8wqrGlMfyAud8+/IvJ0=", raw, params)).toBe(true);
    expect(twilio.validateRequest(token, "TfZzewPq8wqrGlMfyAud8+/IvJ0=", raw, params)).toBe(true);
  });

  it("rejects a changed URL, parameter, token or a missing signature", () => {
    const good = "RSOYDt4T1cUTdK1PDd93/VVr8B8=";
    expect(validateSignature(token, good, url.replace("foo", "fop"), params)).toBe(false);
    expect(validateSignature(token, good, url, { ...params, Digits: "1235" })).toBe(false);
    expect(validateSignature(token, good, url, { ...params, Extra: "" })).toBe(false);
    expect(validateSignature("12346", good, url, params)).toBe(false);
    expect(validateSignature(token, "", url, params)).toBe(false);
    expect(validateSignature(token, undefined, url, params)).toBe(false);
    expect(validateSignature(token, "short", url, params)).toBe(false);
  });

  it("agrees with twilio.validateRequest on a non-standard port", () => {
    const local = "http://127.0.0.1:8080/cb?x=1";
    const signature = computeSignature(token, local, params);
    expect(twilio.validateRequest(token, signature, local, params)).toBe(true);
    expect(validateSignature(token, signature, local, params)).toBe(true);
    expect(twilio.validateRequest(token, signature, "http://127.0.0.1:8081/cb?x=1", params)).toBe(false);
    expect(validateSignature(token, signature, "http://127.0.0.1:8081/cb?x=1", params)).toBe(false);
  });
});

describe("urlWithQuery", () => {
  it("appends the parameters to an existing query, or starts one", () => {
    expect(urlWithQuery("http://h/x", { A: "1", B: "a b" })).toBe("http://h/x?A=1&B=a+b");
    expect(urlWithQuery("http://h/x?y=2", { A: "1" })).toBe("http://h/x?y=2&A=1");
    expect(urlWithQuery("http://h/x?", { A: "1" })).toBe("http://h/x?A=1");
    expect(urlWithQuery("http://h/x", {})).toBe("http://h/x");
  });
});
