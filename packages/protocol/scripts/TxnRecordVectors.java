// Byte vectors of every txn record, serialized by ZooKeeper's own Jute classes (zookeeper-jute.jar), for the
// records a 3.8 server never writes into a log (CreateTxnV0, SetMaxChildrenTxn) as well as the others, with
// non-ASCII and non-BMP paths so the codec's Java string encoding is checked too. Run by
// persistence-fixtures.ts with Java's single-file launcher: java -cp '/usr/share/java/*' TxnRecordVectors.java
// Prints one JSON object per line: {"record": NAME, "hex": BYTES}.
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.apache.jute.BinaryOutputArchive;
import org.apache.jute.Record;
import org.apache.zookeeper.data.ACL;
import org.apache.zookeeper.data.Id;
import org.apache.zookeeper.server.persistence.FileHeader;
import org.apache.zookeeper.txn.*;

public class TxnRecordVectors {
    static byte[] bytes(Record record) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        record.serialize(BinaryOutputArchive.getArchive(out), "r");
        return out.toByteArray();
    }

    static String hex(byte[] b) {
        StringBuilder s = new StringBuilder();
        for (byte x : b) s.append(String.format("%02x", x));
        return s.toString();
    }

    static void emit(String name, Record record) throws IOException {
        System.out.println("{\"record\":\"" + name + "\",\"hex\":\"" + hex(bytes(record)) + "\"}");
    }

    public static void main(String[] args) throws IOException {
        String path = "/app/\u00e9t\u00e9/\ud83d\udd12-0000000007";
        byte[] data = {0, 1, 2, (byte) 0xff, 'h', 'i'};
        List<ACL> acl = Arrays.asList(new ACL(31, new Id("world", "anyone")), new ACL(1, new Id("digest", "alice:X/8=")));
        emit("FileHeader", new FileHeader(0x5a4b4c47, 2, 0L));
        emit("TxnHeader", new TxnHeader(0x100000951490002L, 7, 0x200000013L, 1763896463371L, 15));
        emit("TxnDigest", new TxnDigest(2, 12481312678L));
        emit("CreateTxnV0", new CreateTxnV0(path, data, acl, true));
        emit("CreateTxn", new CreateTxn(path, data, acl, false, 12));
        emit("CreateContainerTxn", new CreateContainerTxn(path, new byte[0], acl, 3));
        emit("CreateTTLTxn", new CreateTTLTxn(path, null, acl, 4, 3600000L));
        emit("DeleteTxn", new DeleteTxn(path));
        emit("SetDataTxn", new SetDataTxn(path, data, 9));
        emit("CheckVersionTxn", new CheckVersionTxn(path, 2));
        emit("SetACLTxn", new SetACLTxn(path, acl, 5));
        emit("SetMaxChildrenTxn", new SetMaxChildrenTxn(path, 100));
        emit("CreateSessionTxn", new CreateSessionTxn(30000));
        emit("CloseSessionTxn", new CloseSessionTxn(Arrays.asList("/a/eph", path)));
        emit("ErrorTxn", new ErrorTxn(-101));
        List<Txn> txns = new ArrayList<>();
        txns.add(new Txn(1, bytes(new CreateTxn("/m", data, acl, false, 1))));
        txns.add(new Txn(13, bytes(new CheckVersionTxn("/m", 0))));
        txns.add(new Txn(-1, bytes(new ErrorTxn(-101))));
        emit("MultiTxn", new MultiTxn(txns));
    }
}
