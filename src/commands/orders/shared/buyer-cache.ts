/**
 * The buyers of orders read this session (orders/shared/buyers.ts reads them): member id -> name and e-mail, null
 * when no member has the id. The orders view's columns and rows read it; kept apart from both so that neither
 * imports the other.
 */
const buyers = new Map<string, { name: string; email: string } | null>();

/** Keeps what was read of a buyer for the rest of the session. */
export function rememberBuyer(memberId: string, buyer: { name: string; email: string } | null): void {
  buyers.set(memberId, buyer);
}

/** What is known of a buyer: the person, null when no member has the id, undefined when not read yet. */
export function knownBuyer(memberId: string): { name: string; email: string } | null | undefined {
  return buyers.get(memberId);
}
