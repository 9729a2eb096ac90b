/**
 * The Bookings Pricing API's Calculate Price (docs/wire.md "Add-on groups and add-ons"): the base price of a
 * booking, before taxes, discounts and fees. A booking is priced as the platform's default pricing logic does:
 * the service's price per participant (`payment.fixed.price`, or `payment.varied.defaultPrice`; 0 for NO_FEE
 * and CUSTOM) times the participants, plus each booked add-on's price times its quantity (a duration add-on counts
 * once). Amounts are decimals in the service's currency, rounded to cents.
 */
import { bookingsPricingFamily } from '../../api/add-ons.js';
import { serve } from '../serve.js';
import { calendarOf, serviceIdOf, type BookingDoc } from './model.js';
import { ValidationFailure } from '../errors.js';

const cents = (n: number) => Math.round(n * 100) / 100;

export const bookingsPricingServed = serve(bookingsPricingFamily, {
  calculatePrice(ctx) {
    const cal = calendarOf(ctx);
    const given = ctx.body.booking as Partial<BookingDoc>;
    // A booking by id alone is the stored one; otherwise the booking described is priced as given.
    const booking = (given.bookedEntity ? given : cal.bookings.require(given.id)) as Partial<BookingDoc>;
    const serviceId = booking.bookedEntity ? serviceIdOf(booking as BookingDoc) : undefined;
    if (!serviceId) throw ValidationFailure.field('booking.bookedEntity', 'the booking must name its service (slot.serviceId or schedule.serviceId)', 'REQUIRED_FIELD');
    const service = cal.catalog.services.require(serviceId);
    const payment = (service.payment ?? {}) as { rateType?: string; fixed?: { price?: { value?: string; currency?: string } }; varied?: { defaultPrice?: { value?: string; currency?: string } } };
    const unit = payment.rateType === 'VARIED' ? payment.varied?.defaultPrice : payment.rateType === 'FIXED' ? payment.fixed?.price : undefined;
    const participants = booking.totalParticipants ?? booking.participantsChoices?.serviceChoices?.reduce((n, c) => n + (c.numberOfParticipants ?? 0), 0) ?? 1;
    const pricePerParticipant = Number(unit?.value ?? 0);
    const addOns = ((booking.bookedAddOns ?? []) as Array<{ id?: string; groupId?: string; quantity?: number | null }>).map((b) => {
      const a = cal.catalog.addOns.require(b.id);
      const quantity = a.durationInMinutes !== undefined ? 1 : (b.quantity ?? 1);
      return { addOnId: a.id, ...(b.groupId ? { groupId: b.groupId } : {}), quantity, price: cents(Number(a.price.value) * quantity) };
    });
    const total = cents(pricePerParticipant * participants + addOns.reduce((n, a) => n + a.price, 0));
    const currency = unit?.currency ?? (addOns[0] ? cal.catalog.addOns.get(addOns[0].addOnId)?.price.currency : undefined);
    return {
      priceInfo: {
        calculatedPrice: total,
        ...(currency ? { currency } : {}),
        bookingLineItems: [{ serviceId, numberOfParticipants: participants, pricePerParticipant }],
        addOns,
      },
    };
  },
});
