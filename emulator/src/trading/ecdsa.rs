//! secp256k1 signatures as Ethereum wallets write them: 65 bytes `r ‖ s ‖ v`, `v` 27/28 (or 0/1), over a 32-byte
//! digest; the signer is known by the address its public key hashes to (k256 for the curve, alloy's keccak).

use alloy_primitives::{keccak256, Address, B256};
use hex::FromHex;
use k256::ecdsa::{RecoveryId, Signature, SigningKey, VerifyingKey};

/// `0x` and 130 hex digits whose last byte is 0, 1, 27 or 28.
pub fn parse_signature(text: &str) -> Option<[u8; 65]> {
    let digits = text.strip_prefix("0x").or_else(|| text.strip_prefix("0X"))?;
    let bytes = <[u8; 65]>::from_hex(digits).ok()?;
    matches!(bytes[64], 0 | 1 | 27 | 28).then_some(bytes)
}

/// The address of a public key: the last 20 bytes of keccak of its uncompressed point (without the 0x04 tag).
pub fn address_of(key: &VerifyingKey) -> Address {
    let point = key.to_encoded_point(false);
    Address::from_slice(&keccak256(&point.as_bytes()[1..])[12..])
}

/// The address that signed `digest`, or None when the signature is not a valid one. A high `s` (which
/// Ethereum's `ecrecover` takes) is accepted: it is normalised and the recovery bit flipped.
pub fn recover(digest: &B256, signature: &[u8; 65]) -> Option<Address> {
    let v = match signature[64] {
        27 | 28 => signature[64] - 27,
        0 | 1 => signature[64],
        _ => return None,
    };
    let mut sig = Signature::from_slice(&signature[..64]).ok()?;
    let mut id = RecoveryId::from_byte(v)?;
    if let Some(low) = sig.normalize_s() {
        sig = low;
        id = RecoveryId::new(!id.is_y_odd(), id.is_x_reduced());
    }
    let key = VerifyingKey::recover_from_prehash(digest.as_slice(), &sig, id).ok()?;
    Some(address_of(&key))
}

/// Signs `digest` as a wallet does: `r ‖ s ‖ v` with a low `s` and `v` 27 or 28.
pub fn sign(key: &SigningKey, digest: &B256) -> Option<[u8; 65]> {
    let (sig, id) = key.sign_prehash_recoverable(digest.as_slice()).ok()?;
    let mut out = [0u8; 65];
    out[..64].copy_from_slice(&sig.to_bytes());
    out[64] = 27 + id.to_byte();
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn signatures_recover_their_signer_in_both_v_forms() {
        let key = SigningKey::from_slice(&[7u8; 32]).unwrap();
        let address = address_of(key.verifying_key());
        let digest = keccak256(b"a message");
        let mut sig = sign(&key, &digest).unwrap();
        assert_eq!(recover(&digest, &sig), Some(address));
        sig[64] -= 27;
        assert_eq!(recover(&digest, &sig), Some(address));
        assert_ne!(recover(&keccak256(b"another"), &sig), Some(address));
        sig[64] = 5;
        assert_eq!(recover(&digest, &sig), None);
        assert!(parse_signature(&format!("0x{}1b", "ab".repeat(64))).is_some());
        assert!(parse_signature(&format!("0x{}1d", "ab".repeat(64))).is_none());
        assert!(parse_signature(&format!("0x{}", "ab".repeat(64))).is_none());
        assert!(parse_signature("0xzz").is_none());
    }

    #[test]
    fn the_development_key_has_its_well_known_address() {
        let key = SigningKey::from_slice(
            &hex::decode("ac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80").unwrap(),
        )
        .unwrap();
        assert_eq!(address_of(key.verifying_key()).to_checksum(None), "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266");
    }
}
