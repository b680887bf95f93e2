// Curator's own order of lock node names, with no server: what InterProcessMutex computes from a getChildren
// listing. Compiled by the test with javac against Debian's Curator jars.
//
//   <name>...
//       prints "SORTED <name>" for each name in the order LockInternals.getSortedChildren puts them (lock name
//       "lock-", StandardLockInternalsDriver: the text after the last "lock-"), then for each name
//       "GRANT <name> <true|false> <watched node or ->": StandardLockInternalsDriver.getsTheLock with one lease,
//       i.e. whether a contender that finds that listing takes the lock and, if not, which node it waits on. DONE.
import java.util.Arrays;
import java.util.List;

import org.apache.curator.framework.recipes.locks.LockInternals;
import org.apache.curator.framework.recipes.locks.PredicateResults;
import org.apache.curator.framework.recipes.locks.StandardLockInternalsDriver;

public final class CuratorSequenceOrder {
  public static void main(String[] args) throws Exception {
    StandardLockInternalsDriver driver = new StandardLockInternalsDriver();
    List<String> sorted = LockInternals.getSortedChildren("lock-", driver, Arrays.asList(args));
    for (String name : sorted) System.out.println("SORTED " + name);
    for (String name : sorted) {
      // getsTheLock does not use the client: it looks up our index in the sorted listing.
      PredicateResults r = driver.getsTheLock(null, sorted, name, 1);
      String watched = r.getPathToWatch() == null ? "-" : r.getPathToWatch();
      System.out.println("GRANT " + name + " " + r.getsTheLock() + " " + watched);
    }
    System.out.println("DONE");
  }
}
