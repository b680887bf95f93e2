// The publishers' own message types fit what the subscribers read (src/channels.ts): a field renamed or retyped
// on either side fails the type check (`npx tsc -p tsconfig.json`), and the channel names are the same strings.
import {
  ChannelNames, type AuthMessage, type ConnectionMessage, type RequestTrace, type SessionMessage, type StateMessage, type WatchEventMessage,
} from '@zkts/protocol';
import { RECIPE_CHANNELS, type CacheResyncTrace, type ElectionTermTrace, type LockHoldTrace, type LockWaitTrace, type QueueTrace } from '@zkts/recipes';
import { describe, expect, expectTypeOf, it } from 'vitest';

import type * as ours from '../../src/channels.js';
import { PLAIN, TRACING, type CacheMessage, type ElectionMessage, type LockMessage, type QueueMessage } from '../../src/channels.js';

describe('the client’s channel contract', () => {
  it('has the names the package subscribes to', () => {
    expect(ChannelNames).toEqual({ request: TRACING.request, ...PLAIN });
  });

  it('has messages of the shapes the package reads', () => {
    expectTypeOf<RequestTrace>().toMatchTypeOf<ours.RequestMessage>();
    expectTypeOf<StateMessage>().toMatchTypeOf<ours.StateMessage>();
    expectTypeOf<ConnectionMessage>().toMatchTypeOf<ours.ConnectionMessage>();
    expectTypeOf<SessionMessage>().toMatchTypeOf<ours.SessionMessage>();
    expectTypeOf<AuthMessage>().toMatchTypeOf<ours.AuthMessage>();
    expectTypeOf<WatchEventMessage>().toMatchTypeOf<ours.WatchMessage>();
  });
});

describe('the recipes’ channel contract', () => {
  it('has the names the package subscribes to', () => {
    expect(RECIPE_CHANNELS).toEqual({
      lockWait: TRACING.lockWait,
      lockHold: TRACING.lockHold,
      electionTerm: TRACING.electionTerm,
      cacheResync: TRACING.cacheResync,
      queuePut: TRACING.queuePut,
      queueTake: TRACING.queueTake,
    });
  });

  it('has contexts of the shapes the package reads', () => {
    expectTypeOf<LockWaitTrace>().toMatchTypeOf<LockMessage>();
    expectTypeOf<LockHoldTrace>().toMatchTypeOf<LockMessage>();
    expectTypeOf<ElectionTermTrace>().toMatchTypeOf<ElectionMessage>();
    expectTypeOf<CacheResyncTrace>().toMatchTypeOf<CacheMessage>();
    expectTypeOf<QueueTrace>().toMatchTypeOf<QueueMessage>();
  });
});
