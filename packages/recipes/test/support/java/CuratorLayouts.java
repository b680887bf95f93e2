// Curator side of the interop tests for SimpleDistributedQueue, SharedValue, DistributedAtomicInteger and
// GzipCompressionProvider data. Messages and values are UTF-8 strings. Compiled by the test with javac against
// Debian's Curator and ZooKeeper jars.
//
//   sq-offer <connect> <path> <msg>...       SimpleDistributedQueue.offer each msg in order; prints DONE.
//   sq-take <connect> <path> <count>         take() count times, printing "GOT <msg>" each; then DONE.
//   sv <connect> <path> <seed> <waitFor> <write>
//       a SharedValue (seed) whose listener prints "HEARD <value>"; prints "VALUE <value>" once started, waits
//       until the value is <waitFor>, then trySetValue(current view, <write>) until it succeeds; prints SET, DONE.
//   atomic-int <connect> <path> <n>          DistributedAtomicInteger.increment() n times; prints "VALUE <v>", DONE.
//   gzip-write <connect> <path> <text>       create().compressed() (GzipCompressionProvider, Curator's default);
//                                            prints "RAW <hex of the stored bytes>", then DONE.
//   gzip-read <connect> <path>               getData().decompressed(); prints "TEXT <text>", then DONE.
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.recipes.atomic.DistributedAtomicInteger;
import org.apache.curator.framework.recipes.queue.SimpleDistributedQueue;
import org.apache.curator.framework.recipes.shared.SharedValue;
import org.apache.curator.framework.recipes.shared.SharedValueListener;
import org.apache.curator.framework.recipes.shared.SharedValueReader;
import org.apache.curator.framework.recipes.shared.VersionedValue;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.apache.curator.retry.RetryNTimes;

public final class CuratorLayouts {
  private static String text(byte[] b) {
    return new String(b, StandardCharsets.UTF_8);
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  public static void main(String[] args) throws Exception {
    String mode = args[0];
    try (CuratorFramework client = CuratorFrameworkFactory.newClient(args[1], 10_000, 5_000, new ExponentialBackoffRetry(100, 5))) {
      client.start();
      client.blockUntilConnected();
      String path = args[2];
      if (mode.equals("sq-offer")) {
        SimpleDistributedQueue queue = new SimpleDistributedQueue(client, path);
        for (String msg : Arrays.copyOfRange(args, 3, args.length)) queue.offer(bytes(msg));
      } else if (mode.equals("sq-take")) {
        SimpleDistributedQueue queue = new SimpleDistributedQueue(client, path);
        for (int i = 0; i < Integer.parseInt(args[3]); i++) {
          System.out.println("GOT " + text(queue.take()));
          System.out.flush();
        }
      } else if (mode.equals("sv")) {
        sharedValue(client, path, args[3], args[4], args[5]);
      } else if (mode.equals("atomic-int")) {
        DistributedAtomicInteger counter = new DistributedAtomicInteger(client, path, new RetryNTimes(1000, 1));
        for (int i = 0; i < Integer.parseInt(args[3]); i++) {
          while (!counter.increment().succeeded()) Thread.sleep(1);
        }
        System.out.println("VALUE " + counter.get().postValue());
      } else if (mode.equals("gzip-write")) {
        client.create().compressed().creatingParentsIfNeeded().forPath(path, bytes(args[3]));
        StringBuilder hex = new StringBuilder();
        for (byte b : client.getData().forPath(path)) hex.append(String.format("%02x", b));
        System.out.println("RAW " + hex);
      } else if (mode.equals("gzip-read")) {
        System.out.println("TEXT " + text(client.getData().decompressed().forPath(path)));
      } else {
        throw new IllegalArgumentException(mode);
      }
      System.out.println("DONE");
    }
    System.out.flush();
  }

  private static void sharedValue(CuratorFramework client, String path, String seed, String waitFor, String write) throws Exception {
    try (SharedValue value = new SharedValue(client, path, bytes(seed))) {
      CountDownLatch heard = new CountDownLatch(1);
      value.getListenable().addListener(new SharedValueListener() {
        @Override
        public void valueHasChanged(SharedValueReader reader, byte[] newValue) {
          System.out.println("HEARD " + text(newValue));
          System.out.flush();
          if (text(newValue).equals(waitFor)) heard.countDown();
        }

        @Override
        public void stateChanged(CuratorFramework c, ConnectionState state) {}
      });
      value.start();
      System.out.println("VALUE " + text(value.getValue()));
      System.out.flush();
      if (!text(value.getValue()).equals(waitFor) && !heard.await(60, TimeUnit.SECONDS)) throw new IllegalStateException("never heard " + waitFor);
      for (;;) {
        VersionedValue<byte[]> v = value.getVersionedValue();
        if (value.trySetValue(v, bytes(write))) break;
        Thread.sleep(5);
      }
      System.out.println("SET");
    }
  }
}
