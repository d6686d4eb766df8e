// The default fixtures' credentials and numbers, named for tests.
export const fixtures = {
  carrierKey: "carrier_sandbox_key_0000000000000000",
  acme: {
    sid: "AC11111111111111111111111111111111",
    authToken: "acme_auth_token_1111111111111111",
    test: { sid: "AC7e571111111111111111111111111111", authToken: "acme_test_token_1111111111111111" },
    fullKey: { sid: "SK11111111111111111111111111111111", key: "acme_full_access_key_111111111111" },
    readKey: { sid: "SK11111111111111111111111111111112", key: "acme_read_only_key_22222222222222" },
    mainNumber: "+14155550100",
  },
  globex: {
    sid: "AC22222222222222222222222222222222",
    authToken: "globex_auth_token_222222222222222",
    test: { sid: "AC7e572222222222222222222222222222", authToken: "globex_test_token_22222222222222" },
    messagesKey: { sid: "SK22222222222222222222222222222221", key: "globex_messages_key_3333333333333" },
  },
  available: {
    us: "+14155550101",
    us2: "+14155550102",
    ny: "+12125550100",
    tollFree: "+18005550100",
    gb: "+442071838750",
  },
  unknownAccount: "AC99999999999999999999999999999999",
} as const;

export const carrierAuth = { bearer: fixtures.carrierKey } as const;
export const acmeAuth = { basic: [fixtures.acme.sid, fixtures.acme.authToken] as [string, string] } as const;
export const globexAuth = {
  basic: [fixtures.globex.sid, fixtures.globex.authToken] as [string, string],
} as const;
