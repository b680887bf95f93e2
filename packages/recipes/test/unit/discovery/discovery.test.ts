// Service discovery without a server: Curator's JSON format (golden strings written by Curator 5.4's
// JsonInstanceSerializer), tolerant and bounded reading, payload codecs, UriSpec, the provider strategies with an
// injected random source, and the down-instance window on a manual clock.
import { describe, expect, it } from 'vitest';

import { ManualClock } from '@zkts/testkit';

import {
  buildUri, InstanceFormatError, instanceUri, javaPayload, JsonInstanceSerializer, parseUriSpec, RandomStrategy,
  RecipeArgumentError, RoundRobinStrategy, serviceInstance, StickyStrategy, type ServiceInstance,
} from '../../../src/index.js';
import { DownInstances } from '../../../src/discovery/down-instances.js';

const bytes = (s: string): Uint8Array => new TextEncoder().encode(s);
const text = (b: Uint8Array): string => new TextDecoder().decode(b);

// What Curator 5.4 wrote for the same instance, `new JsonInstanceSerializer<>(Details.class)` then `(…, false)`.
const CURATOR_COMPATIBLE =
  '{"name":"svc","id":"abc","address":"10.0.0.1","port":8080,"sslPort":null,"payload":{"@class":"Probe$Details","description":"hi","weight":3},' +
  '"registrationTimeUTC":1234567890123,"serviceType":"DYNAMIC","uriSpec":{"parts":[{"value":"scheme","variable":true},' +
  '{"value":"://foo.com:","variable":false},{"value":"port","variable":true}]}}';
const CURATOR_FULL = `${CURATOR_COMPATIBLE.slice(0, -1)},"enabled":true}`;

interface Details {
  description: string;
  weight: number;
}

const golden = serviceInstance<Details>({
  name: 'svc', id: 'abc', address: '10.0.0.1', port: 8080, payload: { description: 'hi', weight: 3 },
  uriSpec: '{scheme}://foo.com:{port}', registrationTimeUTC: 1234567890123,
});

describe('JsonInstanceSerializer', () => {
  it("writes Curator's bytes in both serialization modes and reads them back", () => {
    const compatible = new JsonInstanceSerializer<Details>({ payload: javaPayload('Probe$Details') });
    const full = new JsonInstanceSerializer<Details>({ payload: javaPayload('Probe$Details'), serialization: 'full' });
    expect(text(compatible.serialize(golden))).toBe(CURATOR_COMPATIBLE);
    expect(text(full.serialize(golden))).toBe(CURATOR_FULL);
    expect(compatible.deserialize(bytes(CURATOR_COMPATIBLE))).toEqual(golden);
    expect(full.deserialize(bytes(CURATOR_FULL))).toEqual(golden);
  });

  it("reads Curator's payload forms with the default codec and writes arrays the way Jackson can read them", () => {
    const s = new JsonInstanceSerializer();
    const read = (payload: string): unknown => s.deserialize(bytes(`{"name":"n","id":"i","payload":${payload}}`)).payload;
    expect(read('{"@class":"java.util.HashMap","k":"v","n":5}')).toEqual({ k: 'v', n: 5 });
    expect(read('["java.util.Arrays$ArrayList",[1,2]]')).toEqual([1, 2]);
    expect(read('"text"')).toBe('text');
    expect(read('42')).toBe(42);
    expect(read('null')).toBeNull();
    expect(read('{"plain":true}')).toEqual({ plain: true });
    const list = serviceInstance({ name: 'n', id: 'i', payload: [1, 2], registrationTimeUTC: 1 });
    expect(text(s.serialize(list))).toContain('"payload":["java.util.ArrayList",[1,2]]');
    expect(s.deserialize(s.serialize(list)).payload).toEqual([1, 2]);
  });

  it("tolerant: unknown fields ignored, missing ones take Curator's defaults", () => {
    const s = new JsonInstanceSerializer();
    expect(s.deserialize(bytes('{"name":"svc","id":"x","extra":{"deep":[1]}}'))).toEqual({
      name: 'svc', id: 'x', address: null, port: null, sslPort: null, payload: null, registrationTimeUTC: 0,
      serviceType: 'DYNAMIC', uriSpec: null, enabled: true,
    });
    expect(s.deserialize(bytes('{"name":"s","id":"x","enabled":false,"serviceType":"STATIC"}'))).toMatchObject({ enabled: false, serviceType: 'STATIC' });
  });

  it('refuses malformed data with an InstanceFormatError naming the node and the field', () => {
    const s = new JsonInstanceSerializer({ maxBytes: 200 });
    const cases: [string | Uint8Array, RegExp][] = [
      ['not json', /not a JSON service instance/],
      ['[1]', /not a JSON object/],
      ['{"name":"n","id":"i","port":"80"}', /"port" must be a 32-bit integer/],
      ['{"name":"n","id":"i","port":4294967296}', /"port" must be a 32-bit integer/],
      ['{"name":null,"id":"i"}', /"name" must be a string/],
      ['{"name":"n","id":"i","serviceType":"dynamic"}', /"serviceType" must be DYNAMIC/],
      ['{"name":"n","id":"i","registrationTimeUTC":9007199254740993}', /"registrationTimeUTC"/],
      ['{"name":"n","id":"i","uriSpec":{"parts":[{"variable":true}]}}', /"uriSpec"/],
      ['{"name":"n","id":"i","enabled":"yes"}', /"enabled" must be a boolean/],
      [`{"name":"${'x'.repeat(300)}","id":"i"}`, /more than maxBytes \(200\)/],
      [new Uint8Array([0x7b, 0xff, 0x7d]), /not a JSON service instance/],
    ];
    for (const [data, message] of cases) {
      let error: unknown;
      try {
        s.deserialize(typeof data === 'string' ? bytes(data) : data, '/svc/n/i');
      } catch (e) {
        error = e;
      }
      expect(error, String(data)).toBeInstanceOf(InstanceFormatError);
      expect((error as InstanceFormatError).code).toBe('INSTANCE_FORMAT');
      expect((error as InstanceFormatError).path).toBe('/svc/n/i');
      expect((error as Error).message).toMatch(message);
    }
    const typed = new JsonInstanceSerializer({ payload: javaPayload('com.example.A') });
    expect(() => typed.deserialize(bytes('{"name":"n","id":"i","payload":{"@class":"com.example.B"}}'))).toThrow(/refused: expected com.example.A/);
  });

  it('refuses to write what Curator could not read back, or a disabled instance in the compatible mode', () => {
    const s = new JsonInstanceSerializer();
    expect(() => serviceInstance({ name: 'a/b' })).toThrow(RecipeArgumentError);
    expect(() => serviceInstance({ name: 'svc', port: 70_000.5 })).toThrow(/port must be a 32-bit integer/);
    const disabled = serviceInstance({ name: 'svc', enabled: false });
    expect(() => s.serialize(disabled)).toThrow(/serialization: 'full'/);
    const full = new JsonInstanceSerializer({ serialization: 'full' });
    expect(full.deserialize(full.serialize(disabled)).enabled).toBe(false);
    expect(() => new JsonInstanceSerializer({ maxBytes: 10 }).serialize(serviceInstance({ name: 'svc' }))).toThrow(/maxBytes/);
    expect(() => s.serialize(serviceInstance({ name: 'svc', payload: { big: 1n } }))).toThrow(/not JSON-serializable/);
  });
});

describe('UriSpec', () => {
  it("parses and builds as Curator does (Curator built this template to 'https://a:1/n/x{}')", () => {
    const spec = parseUriSpec('{scheme}://{address}:{port}/{ name }/x{}{[}{]}{missing}');
    const instance = serviceInstance({ name: 'n', id: 'i', address: 'a', port: 1, sslPort: 2, uriSpec: spec });
    expect(instanceUri(instance)).toBe('https://a:1/n/x{}');
    expect(buildUri(parseUriSpec('{scheme}://{address}:{port}'))).toBe('http://:');
    expect(buildUri(parseUriSpec('{scheme}://{host}'), undefined, { scheme: 'ftp', host: 'h' })).toBe('ftp://h');
    expect(instanceUri(serviceInstance({ name: 'n', serviceType: 'DYNAMIC_SEQUENTIAL', uriSpec: '{service-type}' }))).toBe('dynamic_sequential');
    expect(() => parseUriSpec('a}')).toThrow(/without "{"/);
    expect(() => parseUriSpec('{a{b}}')).toThrow(/inside a variable/);
    expect(() => parseUriSpec('{a')).toThrow(/not closed/);
  });
});

const instances = ['a', 'b', 'c'].map((id) => serviceInstance({ name: 'svc', id, registrationTimeUTC: 1 }));
const ids = (list: (ServiceInstance | null)[]): (string | undefined)[] => list.map((i) => i?.id);

describe('strategies', () => {
  it('round-robin walks the current list by a counter; none → null', () => {
    const s = new RoundRobinStrategy();
    expect(ids([1, 2, 3, 4].map(() => s.getInstance(instances)))).toEqual(['a', 'b', 'c', 'a']);
    expect(ids([1, 2].map(() => s.getInstance(instances.slice(0, 2))))).toEqual(['a', 'b']); // counter 4, 5 mod 2
    expect(s.getInstance([])).toBeNull();
  });

  it('random indexes by the injected source (clamped at the top)', () => {
    const draws = [0, 0.34, 0.99, 1];
    const s = new RandomStrategy({ random: () => draws.shift()! });
    expect(ids([1, 2, 3, 4].map(() => s.getInstance(instances)))).toEqual(['a', 'b', 'c', 'c']);
    expect(s.getInstance([])).toBeNull();
  });

  it('sticky keeps its instance (also an updated version) until it is gone, then asks its master again', () => {
    const s = new StickyStrategy(new RoundRobinStrategy());
    expect(s.instanceNumber).toBe(-1);
    expect(s.getInstance(instances)?.id).toBe('a');
    expect(s.getInstance(instances)?.id).toBe('a');
    expect(s.instanceNumber).toBe(0);
    const updated = serviceInstance({ name: 'svc', id: 'a', port: 9, registrationTimeUTC: 1 });
    expect(s.getInstance([instances[1]!, updated])).toBe(updated);
    expect(s.getInstance(instances.slice(1))?.id).toBe('c'); // master's counter is at 1
    expect(s.instanceNumber).toBe(1);
    expect(s.getInstance([])).toBeNull();
  });
});

describe('down instances (Curator DownInstanceManager)', () => {
  it('an instance is down from the threshold-th error until timeout after its first, purged at most every timeout/2', () => {
    const clock = new ManualClock();
    const down = new DownInstances({ timeoutMs: 1000, errorThreshold: 2 }, clock);
    const [a, b] = instances as [ServiceInstance, ServiceInstance];
    down.add(a);
    expect(down.isUp(a)).toBe(true);
    clock.advance(400);
    down.add(a);
    expect(down.isUp(a)).toBe(false);
    expect(down.isUp(b)).toBe(true);
    // An update of the instance (same name and id) is still the same instance.
    expect(down.isUp(serviceInstance({ name: 'svc', id: 'a', port: 1 }))).toBe(false);
    clock.advance(599); // 999 ms after the first error: a purge runs, but the entry is inside its window
    expect(down.isUp(a)).toBe(false);
    clock.advance(1); // the window is over, but the next purge is not due before 999 + 500
    expect(down.isUp(a)).toBe(false);
    clock.advance(499);
    expect(down.isUp(a)).toBe(true);
    expect(() => new DownInstances({ errorThreshold: 0 }, clock)).toThrow(RecipeArgumentError);
  });
});
