//! TypeScript declarations of the shapes the client's methods take and return.
//!
//! The declarations are TypeScript files beside the Rust that exports them (`client.d.ts`, `catalog.d.ts`,
//! ...; `book.d.ts`, `math.d.ts` and `stream.d.ts` are included by their modules). Each is copied verbatim
//! into the generated `predictkit.d.ts`; methods name these types with
//! `unchecked_param_type` / `unchecked_return_type`. Response shapes follow interface §2, corrected by the
//! real recorded responses in `tests/fixtures/real` (which decide what is optional or nullable), and
//! `tests/types` assigns every recording to its declared type so the two cannot drift apart.

use wasm_bindgen::prelude::*;

#[wasm_bindgen(typescript_custom_section)]
const CLIENT_TYPES: &str = include_str!("client.d.ts");

#[wasm_bindgen(typescript_custom_section)]
const METHOD_TYPES: &str = include_str!("methods.d.ts");

#[wasm_bindgen(typescript_custom_section)]
const PAGE_TYPES: &str = include_str!("pages.d.ts");

#[wasm_bindgen(typescript_custom_section)]
const ACTIVITY_TYPES: &str = include_str!("activity.d.ts");

#[wasm_bindgen(typescript_custom_section)]
const CATALOG_TYPES: &str = include_str!("catalog.d.ts");

#[wasm_bindgen(typescript_custom_section)]
const CLOB_TYPES: &str = include_str!("clob.d.ts");

#[wasm_bindgen(typescript_custom_section)]
const ACCOUNT_TYPES: &str = include_str!("account.d.ts");

#[wasm_bindgen(typescript_custom_section)]
const PARAMS_TYPES: &str = include_str!("params.d.ts");

#[cfg(feature = "trade")]
#[wasm_bindgen(typescript_custom_section)]
const TRADING_TYPES: &str = include_str!("trade.d.ts");
