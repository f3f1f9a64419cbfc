// The wasm-bindgen module of a build (pkg/web, pkg/bundler, pkg/lite, pkg/node: predictkit.js), as the
// package's JS files use it: tsconfig.json's rootDirs resolve their `./<build>/predictkit.js` imports here,
// so the check needs no build. The binding's internal entries (`skip_typescript` in src/wasm) are typed
// where they are used (RestClient in client.mjs, PagingClient in pages.mjs, TradingClient in trade.mjs), and
// reached through guard.mjs's `internal` table, not the prototype it moves them off; tests/js/surface.test.mjs
// holds the list of those entries equal to the table's.
import type { RestClient } from "../../../src/js/package/client.mjs";
import type { TradingClient } from "../../../src/js/package/trade.mjs";

/** An instance of a wasm-bindgen class: its handle is 0 once freed. */
interface Handle {
  readonly __wbg_ptr: number;
  __destroy_into_raw(): number;
  free(): void;
}

export interface Client extends Handle, RestClient, TradingClient {}
export declare const Client: {
  new (options: unknown): Client;
  readonly prototype: Client;
  /** The route table (src/api/methods.rs: ENDPOINTS): `[name, argument count, list, rows are trades]`. */
  restMethods(): [name: string, count: number, list: boolean, rowsAreTrades: boolean][];
};

/** A class of the binding, as guard.mjs sees it (the entries export each as its view). */
declare class Instance implements Handle {
  readonly __wbg_ptr: number;
  __destroy_into_raw(): number;
  free(): void;
}
export declare class OrderBook extends Instance {}
export declare class StreamCore extends Instance {}
export declare class Task extends Instance {}

/** The `FREED` error (src/wasm/interop.rs). */
export declare function freedError(): Error;

/** wasm-bindgen's initialisers of the web builds. */
export default function init(options?: unknown): Promise<unknown>;
export declare function initSync(options?: unknown): unknown;
