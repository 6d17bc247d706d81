/**
 * Published keystores with known contents, so the keystore code is held to the format itself and
 * not only to its own round trip.
 */

/**
 * The Web3 Secret Storage Definition's test vectors (ethereum.org "Web3 secret storage
 * definition", § Test vectors): password "testpassword", secret
 * 7a28b5ba…14fe9d, the same key under PBKDF2-SHA256 and under scrypt (n = 2^18, r = 1, p = 8; a
 * parameter set OpenSSL's scrypt refuses). Published derived key of the scrypt one:
 * fac192ceb5fd772906bea3e118a69e8bbb5cc24229e20d8766fd298291bba6bd.
 */
export const SPEC_PASSWORD = 'testpassword';
export const SPEC_SECRET = '7a28b5ba57c53603b0b07b56bba752f7784bf506fa95edc395f5cf6c7514fe9d';

export const SPEC_SCRYPT_KEYSTORE = {
  crypto: {
    cipher: 'aes-128-ctr',
    cipherparams: { iv: '83dbcc02d8ccb40e466191a123791e0e' },
    ciphertext: 'd172bf743a674da9cdad04534d56926ef8358534d458fffccd4e6ad2fbde479c',
    kdf: 'scrypt',
    kdfparams: { dklen: 32, n: 262144, r: 1, p: 8, salt: 'ab0c7876052600dd703518d6fc3fe8984592145b591fc8fb5c6d43190334ba19' },
    mac: '2103ac29920d71da29f15d75b4a16dbe95cfd7ff8faea1056c33131d846e3097',
  },
  id: '3198bc9c-6672-5ab3-d995-4942343ae5b6',
  version: 3,
};

export const SPEC_PBKDF2_KEYSTORE = {
  crypto: {
    cipher: 'aes-128-ctr',
    cipherparams: { iv: '6087dab2f9fdbbfaddc31a909735c1e6' },
    ciphertext: '5318b4d5bcd28de64ee5559e671353e16f075ecae9f99c7a79a38af5f869aa46',
    kdf: 'pbkdf2',
    kdfparams: { c: 262144, dklen: 32, prf: 'hmac-sha256', salt: 'ae3cd4e7013836a3df6bd7241b12db061dbe2c6785853cce422d148a624ce0bd' },
    mac: '517ead924a9d0dc3124507e3393d175ce3ff7c1e96529c6c555ce9e51205e9b2',
  },
  id: '3198bc9c-6672-5ab3-d995-4942343ae5b6',
  version: 3,
};

/**
 * The test keystore of the `eth-keystore` crate that starkli uses (roynalnaruto/eth-keystore-rs
 * tests/test-keys/key-scrypt.json, the revision starkli's Cargo.toml pins): starkli's own KDF
 * parameters (n = 8192, r = 8, p = 1), fields in another order, as another tool wrote them.
 */
export const ETH_KEYSTORE_CRATE_PASSWORD = 'grOQ8QDnGHvpYJf';
export const ETH_KEYSTORE_CRATE_SECRET = '80d3a6ed7b24dcd652949bc2f3827d2f883b3722e3120b15a93a2e0790f03829';
export const ETH_KEYSTORE_CRATE_KEYSTORE = `{
	"version": 3,
	"id": "23fb6c51-79c8-4ce5-a02a-0f4f169a4168",
	"crypto": {
		"ciphertext": "eb7302cc8669683e49fc40f3445464020568a1d82e71c977264f286a3099be58",
		"cipherparams": {
			"iv": "2a9fc5d709ab79e7f015111b93872f6c"
		},
		"cipher": "aes-128-ctr",
		"kdf": "scrypt",
		"kdfparams": {
			"dklen": 32,
			"salt": "19a1b0af7a3f4f04a4e8d1cf722550e905da18b369029b0460b12765f19d8a99",
			"n": 8192,
			"r": 8,
			"p": 1
		},
		"mac": "b2987a6adb597af26705042977c55ea132ca1391220455769eba2bc0b239089b"
	}
}`;
