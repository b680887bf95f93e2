// Curator side of the queue interop tests: Curator's own DistributedQueue family (QueueBuilder) putting into and
// consuming from the queues zkts uses. Messages are UTF-8 strings. Compiled by the test with javac against
// Debian's Curator and ZooKeeper jars.
//
//   put <connect> <kind> <path> <spec>...     kind = plain | priority | delay | id
//       puts each spec in order (in the foreground): plain "msg" (or "a+b+c": one putMulti), priority "msg:prio",
//       delay "msg:+ms" (due = now + ms), id "msg:id". Prints "PUT <msg> <due epoch ms or 0>" each, then DONE.
//   consume <connect> <kind> <path> <count> [lockPath]
//       a consumer of that kind (lock-safe with lockPath) that prints "GOT <msg> <epoch ms>" per message;
//       after <count> messages it closes the queue and prints DONE.
//   remove <connect> <path> <id>
//       DistributedIdQueue.remove(id); prints "REMOVED <n>".
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Iterator;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.recipes.queue.DistributedDelayQueue;
import org.apache.curator.framework.recipes.queue.DistributedIdQueue;
import org.apache.curator.framework.recipes.queue.DistributedPriorityQueue;
import org.apache.curator.framework.recipes.queue.DistributedQueue;
import org.apache.curator.framework.recipes.queue.MultiItem;
import org.apache.curator.framework.recipes.queue.QueueBase;
import org.apache.curator.framework.recipes.queue.QueueBuilder;
import org.apache.curator.framework.recipes.queue.QueueConsumer;
import org.apache.curator.framework.recipes.queue.QueueSerializer;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.curator.retry.ExponentialBackoffRetry;

public final class CuratorQueues {
  private static final QueueSerializer<String> UTF8 = new QueueSerializer<String>() {
    @Override
    public byte[] serialize(String item) {
      return item.getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public String deserialize(byte[] bytes) {
      return new String(bytes, StandardCharsets.UTF_8);
    }
  };

  public static void main(String[] args) throws Exception {
    String mode = args[0];
    try (CuratorFramework client = CuratorFrameworkFactory.newClient(args[1], 10_000, 5_000, new ExponentialBackoffRetry(100, 5))) {
      client.start();
      client.blockUntilConnected();
      if (mode.equals("put")) {
        put(client, args[2], args[3], Arrays.copyOfRange(args, 4, args.length));
      } else if (mode.equals("consume")) {
        consume(client, args[2], args[3], Integer.parseInt(args[4]), args.length > 5 ? args[5] : null);
      } else if (mode.equals("remove")) {
        DistributedIdQueue<String> queue = QueueBuilder.builder(client, null, UTF8, args[2]).buildIdQueue();
        queue.start();
        System.out.println("REMOVED " + queue.remove(args[3]));
        queue.close();
      } else {
        throw new IllegalArgumentException(mode);
      }
    }
    System.out.flush();
  }

  private static void put(CuratorFramework client, String kind, String path, String[] specs) throws Exception {
    QueueBuilder<String> builder = QueueBuilder.builder(client, null, UTF8, path).putInBackground(false);
    QueueBase<String> queue = build(builder, kind);
    queue.start();
    for (String spec : specs) {
      int colon = spec.lastIndexOf(':');
      String msg = colon < 0 ? spec : spec.substring(0, colon);
      String arg = colon < 0 ? null : spec.substring(colon + 1);
      long due = 0;
      if (kind.equals("plain")) {
        DistributedQueue<String> q = (DistributedQueue<String>) queue;
        if (msg.contains("+")) {
          Iterator<String> parts = Arrays.asList(msg.split("\\+")).iterator();
          q.putMulti(new MultiItem<String>() {
            @Override
            public String nextItem() {
              return parts.hasNext() ? parts.next() : null;
            }
          });
        } else {
          q.put(msg);
        }
      } else if (kind.equals("priority")) {
        ((DistributedPriorityQueue<String>) queue).put(msg, Integer.parseInt(arg));
      } else if (kind.equals("delay")) {
        due = System.currentTimeMillis() + Long.parseLong(arg.substring(1));
        ((DistributedDelayQueue<String>) queue).put(msg, due);
      } else {
        ((DistributedIdQueue<String>) queue).put(msg, arg);
      }
      System.out.println("PUT " + msg + " " + due);
    }
    queue.flushPuts(10, TimeUnit.SECONDS);
    queue.close();
    System.out.println("DONE");
  }

  private static void consume(CuratorFramework client, String kind, String path, int count, String lockPath) throws Exception {
    CountDownLatch left = new CountDownLatch(count);
    QueueConsumer<String> consumer = new QueueConsumer<String>() {
      @Override
      public void consumeMessage(String message) {
        System.out.println("GOT " + message + " " + System.currentTimeMillis());
        System.out.flush();
        left.countDown();
      }

      @Override
      public void stateChanged(CuratorFramework c, ConnectionState state) {}
    };
    QueueBuilder<String> builder = QueueBuilder.builder(client, consumer, UTF8, path);
    if (lockPath != null) builder = builder.lockPath(lockPath);
    QueueBase<String> queue = build(builder, kind);
    queue.start();
    System.out.println("STARTED");
    System.out.flush();
    left.await();
    Thread.sleep(200); // let the last item's removal finish before closing
    queue.close();
    System.out.println("DONE");
  }

  private static QueueBase<String> build(QueueBuilder<String> builder, String kind) {
    switch (kind) {
      case "plain": return builder.buildQueue();
      case "priority": return builder.buildPriorityQueue(0);
      case "delay": return builder.buildDelayQueue();
      case "id": return builder.buildIdQueue();
      default: throw new IllegalArgumentException(kind);
    }
  }
}
