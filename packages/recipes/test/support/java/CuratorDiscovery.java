// Curator side of the service discovery interop test: Curator's own ServiceDiscovery (curator-x-discovery, default
// JsonInstanceSerializer) on the same server and base path as zkts. Compiled by the test with javac against
// Debian's Curator, ZooKeeper and Jackson jars.
//
//   query <connect> <basePath> <name>
//       queryForInstances(name), then a ServiceProvider and a ServiceCache of the service; prints one line per
//       instance, "INSTANCE <json of every field as Curator read it>", then "PROVIDER <ids>", "CACHE <ids>"
//       (sorted, comma-separated), then DONE.
//   register <connect> <basePath> <name> <id>
//       registers a DYNAMIC instance with a Details payload (see below), prints REGISTERED, waits for a line on
//       stdin, closes the discovery (which unregisters it) and prints CLOSED.
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.apache.curator.x.discovery.ServiceCache;
import org.apache.curator.x.discovery.ServiceDiscovery;
import org.apache.curator.x.discovery.ServiceDiscoveryBuilder;
import org.apache.curator.x.discovery.ServiceInstance;
import org.apache.curator.x.discovery.ServiceProvider;
import org.apache.curator.x.discovery.UriSpec;

public final class CuratorDiscovery {
  /** The payload type both sides agree on: zkts writes it with javaPayload("CuratorDiscovery$Details"). */
  public static final class Details {
    public String description;
    public int weight;

    public Details() {}

    public Details(String description, int weight) {
      this.description = description;
      this.weight = weight;
    }
  }

  public static void main(String[] args) throws Exception {
    String mode = args[0];
    try (CuratorFramework client = CuratorFrameworkFactory.newClient(args[1], 10_000, 5_000, new ExponentialBackoffRetry(100, 5))) {
      client.start();
      client.blockUntilConnected();
      ServiceDiscovery<Details> discovery = ServiceDiscoveryBuilder.builder(Details.class).client(client).basePath(args[2]).build();
      discovery.start();
      if (mode.equals("query")) {
        query(discovery, args[3]);
      } else if (mode.equals("register")) {
        ServiceInstance<Details> instance = ServiceInstance.<Details>builder()
            .name(args[3]).id(args[4]).address("10.1.2.3").port(9000).sslPort(9443)
            .payload(new Details("from-java", 7)).registrationTimeUTC(1700000000000L)
            .uriSpec(new UriSpec("{scheme}://{address}:{ssl-port}/v1")).build();
        discovery.registerService(instance);
        System.out.println("REGISTERED");
        System.out.flush();
        new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
        discovery.close();
        System.out.println("CLOSED");
      } else {
        throw new IllegalArgumentException("unknown mode " + mode);
      }
      System.out.flush();
    }
  }

  private static void query(ServiceDiscovery<Details> discovery, String name) throws Exception {
    ObjectMapper mapper = new ObjectMapper();
    for (ServiceInstance<Details> i : discovery.queryForInstances(name)) {
      Map<String, Object> fields = new LinkedHashMap<>();
      fields.put("name", i.getName());
      fields.put("id", i.getId());
      fields.put("address", i.getAddress());
      fields.put("port", i.getPort());
      fields.put("sslPort", i.getSslPort());
      Details d = i.getPayload();
      fields.put("payloadClass", d == null ? null : d.getClass().getName());
      fields.put("description", d == null ? null : d.description);
      fields.put("weight", d == null ? null : d.weight);
      fields.put("registrationTimeUTC", i.getRegistrationTimeUTC());
      fields.put("serviceType", i.getServiceType().name());
      fields.put("uri", i.buildUriSpec());
      fields.put("enabled", i.isEnabled());
      System.out.println("INSTANCE " + mapper.writeValueAsString(fields));
    }
    try (ServiceProvider<Details> provider = discovery.serviceProviderBuilder().serviceName(name).build()) {
      provider.start();
      System.out.println("PROVIDER " + ids(provider.getAllInstances()));
    }
    try (ServiceCache<Details> cache = discovery.serviceCacheBuilder().name(name).build()) {
      cache.start();
      System.out.println("CACHE " + ids(cache.getInstances()));
    }
    System.out.println("DONE");
  }

  private static String ids(Collection<ServiceInstance<Details>> instances) {
    List<String> ids = new ArrayList<>();
    for (ServiceInstance<Details> i : instances) ids.add(i.getId());
    Collections.sort(ids);
    return String.join(",", ids);
  }
}
