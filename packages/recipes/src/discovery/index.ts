/** Service discovery: Curator's curator-x-discovery layout and JSON, with its cache, provider and strategies. */
export { ServiceDiscovery, type DiscoveryClient, type ServiceDiscoveryOptions } from './service-discovery.js';
export {
  serviceInstance, instanceUri, type ServiceInstance, type ServiceInstanceInit, type ServiceType,
} from './instance.js';
export { parseUriSpec, buildUri, type UriSpec, type UriSpecPart, type UriFields } from './uri-spec.js';
export {
  JsonInstanceSerializer, jsonPayload, javaPayload,
  type InstanceSerializer, type InstanceSerialization, type JsonInstanceSerializerOptions, type PayloadCodec,
} from './serializer.js';
export { ServiceCache, type ServiceCacheOptions } from './service-cache.js';
export { ServiceProvider, type ServiceProviderOptions, type InstanceFilter } from './service-provider.js';
export type { DownInstancePolicy } from './down-instances.js';
export {
  RandomStrategy, RoundRobinStrategy, StickyStrategy, type ProviderStrategy, type RandomStrategyOptions,
} from './strategies.js';
