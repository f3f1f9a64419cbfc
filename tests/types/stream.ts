// The streaming API: events narrowed by `event_type`, live books and their status, options checked.
// Nothing here runs: it is only type-checked.

import { Client } from "../../pkg/web/predictkit.js";
import type {
  LiveBookStatus,
  MarketStream,
  MarketStreamEvent,
  OrderBook,
  PriceChangeEntry,
  StreamStatus,
  UserStream,
  UserStreamEvent,
} from "../../pkg/web/predictkit.js";

export async function typecheck(client: Client, tokenId: string): Promise<void> {
  const stream: MarketStream = client.marketStream([tokenId], {
    verify: "entry",
    stallAfterMs: 30_000,
    onEvent: (event) => {
      if (event.event_type === "book_update") {
        const verified: boolean = event.verified;
        void verified;
      }
    },
  });
  for await (const event of stream) {
    const e: MarketStreamEvent = event;
    switch (e.event_type) {
      case "book": {
        const hash: string = e.hash;
        const bestLast: string | undefined = e.bids.at(-1)?.price;
        void hash, bestLast;
        break;
      }
      case "price_change": {
        const entries: PriceChangeEntry[] = e.price_changes;
        const side: "BUY" | "SELL" = entries[0].side;
        void side;
        break;
      }
      case "status": {
        const status: StreamStatus = e.status;
        void status;
        break;
      }
      case "resync":
        void e.reason;
        break;
      case "error":
        void e.error.code;
        break;
    }
  }
  const book: OrderBook | undefined = stream.book(tokenId);
  book?.free();
  const status: LiveBookStatus | undefined = stream.bookStatus(tokenId);
  const at: number | undefined = status?.verifiedAt;
  void at;
  stream.subscribe(["1"]);
  stream.unsubscribe(["1"]);
  stream.close();

  const user: UserStream = client.userStream([], { signal: new AbortController().signal });
  for await (const event of user) {
    const e: UserStreamEvent = event;
    if (e.event_type === "order") {
      const kind: "PLACEMENT" | "UPDATE" | "CANCELLATION" = e.type;
      void kind;
    }
  }

  // @ts-expect-error: asset ids are an array of strings
  client.marketStream(tokenId);
  // @ts-expect-error: verify is "entry", "frame" or "off"
  client.marketStream([tokenId], { verify: "always" });
  // @ts-expect-error: a market stream's events are not the user channel's
  const wrong: UserStreamEvent = (null as unknown as MarketStreamEvent);
  void wrong;
}
