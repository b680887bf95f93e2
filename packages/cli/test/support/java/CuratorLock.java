// Holds or tries Curator's InterProcessMutex, for the interoperability test of `zkts lock`.
//   java -cp CLASSPATH CuratorLock.java CONNECT PATH hold     prints ACQUIRED, releases at the first stdin line
//                                                             (or EOF), prints RELEASED
//   java -cp CLASSPATH CuratorLock.java CONNECT PATH try MS   prints ACQUIRED (and releases) or TIMEOUT
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.util.concurrent.TimeUnit;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.recipes.locks.InterProcessMutex;
import org.apache.curator.retry.RetryOneTime;

public class CuratorLock {
    public static void main(String[] args) throws Exception {
        String connect = args[0];
        String path = args[1];
        String mode = args[2];
        CuratorFramework client = CuratorFrameworkFactory.newClient(connect, 10_000, 10_000, new RetryOneTime(500));
        client.start();
        client.blockUntilConnected();
        InterProcessMutex mutex = new InterProcessMutex(client, path);
        if (mode.equals("hold")) {
            mutex.acquire();
            System.out.println("ACQUIRED");
            System.out.flush();
            new BufferedReader(new InputStreamReader(System.in)).readLine();
            mutex.release();
            System.out.println("RELEASED");
        } else {
            boolean acquired = mutex.acquire(Long.parseLong(args[3]), TimeUnit.MILLISECONDS);
            System.out.println(acquired ? "ACQUIRED" : "TIMEOUT");
            if (acquired) mutex.release();
        }
        System.out.flush();
        client.close();
    }
}
