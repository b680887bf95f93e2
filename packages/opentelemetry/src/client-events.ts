/**
 * The client's plain channels → metrics: clients per state (`zkts:state`), reconnects and failed dials
 * (`zkts:connection`), expiries and renewals (`zkts:session`), authentications (`zkts:auth`) and watch events
 * with their delivery delay (`zkts:event`). Only low-cardinality values become attributes: never a path or a
 * session id.
 */
import type { Attributes } from '@opentelemetry/api';

import type { AuthMessage, ConnectionMessage, SessionMessage, StateMessage, WatchMessage } from './channels.js';
import { PLAIN } from './channels.js';
import type { Instruments } from './instruments.js';
import { ATTR } from './names.js';
import { onChannel, type Undo } from './subscribe.js';
import { errorType, num, setServer, text } from './values.js';

export function subscribeClientEvents(instruments: Instruments): Undo {
  const undo = [
    onChannel<StateMessage>(PLAIN.state, (message) => {
      instruments.states.move(text(message.from), text(message.to));
    }),
    onChannel<ConnectionMessage>(PLAIN.connection, (message) => {
      const event = text(message.event);
      if (event === 'dialing') {
        // A reconnection begins with a dial for a reason other than the first connect; the dials that follow a
        // failed one ('cycle': the next host) belong to the same reconnection.
        const reason = text(message.reason);
        if (reason !== undefined && reason !== 'first' && reason !== 'cycle') instruments.reconnects.add(1, { [ATTR.reconnectReason]: reason });
      } else if (event === 'dial-failed') {
        const attributes: Attributes = {};
        setServer(attributes, message.server);
        attributes[ATTR.errorType] = errorType(message.cause?.code, undefined);
        instruments.connectionFailures.add(1, attributes);
      }
    }),
    onChannel<SessionMessage>(PLAIN.session, (message) => {
      const event = text(message.event);
      if (event === 'expired') instruments.sessionExpirations.add(1);
      else if (event === 'renewed') instruments.sessionRenewals.add(1);
    }),
    onChannel<AuthMessage>(PLAIN.auth, (message) => {
      const attributes: Attributes = { [ATTR.authScheme]: text(message.scheme) ?? 'unknown', [ATTR.authOutcome]: text(message.outcome) ?? 'unknown' };
      if (message.outcome === 'failed') attributes[ATTR.errorType] = errorType(message.cause?.code, undefined);
      instruments.authAttempts.add(1, attributes);
    }),
    onChannel<WatchMessage>(PLAIN.event, (message) => {
      const attributes: Attributes = { [ATTR.watchEventType]: text(message.type) ?? 'unknown' };
      instruments.watchEvents.add(1, attributes);
      const delay = num(message.deliveryDelayMs);
      if (delay !== undefined && delay >= 0) instruments.watchDeliveryDelay.record(delay / 1000, attributes);
    }),
  ];
  return () => {
    for (const u of undo) u();
  };
}
