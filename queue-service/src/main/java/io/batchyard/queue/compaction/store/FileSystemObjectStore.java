package io.batchyard.queue.compaction.store;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.UUID;
import java.util.stream.Stream;

/**
 * Objects as files under a root directory (local or mounted). Writes go to a unique temporary name beside the target,
 * are forced to disk, then renamed atomically: two writers of one key (a presumed-dead worker and its successor) each
 * produce a whole file, and the last rename wins.
 */
public final class FileSystemObjectStore implements ObjectStore {

    private static final String TEMP_MARK = ".tmp-";

    private final Path root;

    public FileSystemObjectStore(Path root) {
        try {
            this.root = Files.createDirectories(root).toRealPath();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create the object-store root " + root, e);
        }
    }

    public Path root() {
        return root;
    }

    @Override
    public PendingObject create(String key) throws IOException {
        Path target = resolve(key);
        Files.createDirectories(target.getParent());
        Path temp = target.resolveSibling(target.getFileName() + TEMP_MARK + UUID.randomUUID());
        FileChannel channel = FileChannel.open(temp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
        OutputStream out = Channels.newOutputStream(channel);
        return new PendingObject() {
            private boolean done;

            @Override
            public OutputStream stream() {
                return out;
            }

            @Override
            public long commit() throws IOException {
                out.flush();
                channel.force(true);
                long size = channel.size();
                channel.close();
                move(temp, target);
                done = true;
                return size;
            }

            @Override
            public void close() {
                if (done) {
                    return;
                }
                done = true;
                try {
                    channel.close();
                    Files.deleteIfExists(temp);
                } catch (IOException ignored) {
                    // a leftover temporary file is never read: readers only open committed keys
                }
            }
        };
    }

    @Override
    public InputStream open(String key) throws IOException {
        return Files.newInputStream(resolve(key));
    }

    @Override
    public boolean exists(String key) {
        return Files.isRegularFile(resolve(key));
    }

    @Override
    public long size(String key) throws IOException {
        return Files.size(resolve(key));
    }

    @Override
    public List<String> list(String folder) throws IOException {
        Path dir = resolve(folder.endsWith("/") ? folder.substring(0, folder.length() - 1) : folder);
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(Files::isRegularFile).map(p -> p.getFileName().toString())
                    .filter(name -> !name.contains(TEMP_MARK)).sorted()
                    .map(name -> (folder.endsWith("/") ? folder : folder + "/") + name).toList();
        }
    }

    @Override
    public void delete(String key) throws IOException {
        Files.deleteIfExists(resolve(key));
    }

    @Override
    public void copy(String sourceKey, String key) throws IOException {
        Path source = resolve(sourceKey);
        if (!Files.isRegularFile(source)) {
            throw new NoSuchFileException(sourceKey);
        }
        Path target = resolve(key);
        Files.createDirectories(target.getParent());
        Path temp = target.resolveSibling(target.getFileName() + TEMP_MARK + UUID.randomUUID());
        try {
            // A hard link costs nothing and shares the bytes; across file systems fall back to a copy.
            Files.createLink(temp, source);
        } catch (IOException | UnsupportedOperationException e) {
            Files.copy(source, temp, StandardCopyOption.COPY_ATTRIBUTES);
            try (FileChannel c = FileChannel.open(temp, StandardOpenOption.WRITE)) {
                c.force(true);
            }
        }
        move(temp, target);
    }

    @Override
    public String checkKey(String key) {
        if (key != null && key.contains(TEMP_MARK)) {
            throw new IllegalArgumentException("an object key is a relative '/'-separated path");
        }
        return ObjectStore.checkRelativeKey(key);
    }

    @Override
    public URI uri(String key) {
        return resolve(key).toUri();
    }

    private Path resolve(String key) {
        Path p = root.resolve(key).normalize();
        if (!p.startsWith(root)) {
            throw new IllegalArgumentException("object key outside the store");
        }
        return p;
    }

    @Override
    public String toString() {
        return "file store " + root;
    }

    private static void move(Path temp, Path target) throws IOException {
        try {
            Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (AtomicMoveNotSupportedException | FileAlreadyExistsException e) {
            Files.move(temp, target, StandardCopyOption.REPLACE_EXISTING);
        }
        // make the rename itself durable
        try (FileChannel dir = FileChannel.open(target.getParent(), StandardOpenOption.READ)) {
            dir.force(true);
        } catch (IOException ignored) {
            // some file systems do not allow opening a directory; the rename is still atomic there
        }
    }
}
