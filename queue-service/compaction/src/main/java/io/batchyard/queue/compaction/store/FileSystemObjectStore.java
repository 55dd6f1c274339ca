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
import java.nio.file.LinkOption;
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
 *
 * <p>No symbolic link is followed, on any part of a key's path, for reads and writes alike ({@link
 * LinkRefusedException}): whoever can write into the store could otherwise point a key at another table's objects or
 * at any file the service may open. Files are opened with {@code NOFOLLOW_LINKS} as well, and a directory made for a
 * write is checked again once it exists; listings leave links out.
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
        Path target = resolveForWrite(key);
        Path temp = target.resolveSibling(target.getFileName() + TEMP_MARK + UUID.randomUUID());
        FileChannel channel = FileChannel.open(temp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE,
                LinkOption.NOFOLLOW_LINKS);
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
        return Files.newInputStream(resolve(key), LinkOption.NOFOLLOW_LINKS);
    }

    @Override
    public boolean exists(String key) {
        return Files.isRegularFile(resolve(key), LinkOption.NOFOLLOW_LINKS);
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
            return files.filter(p -> Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS))
                    .map(p -> p.getFileName().toString())
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
        if (!Files.isRegularFile(source, LinkOption.NOFOLLOW_LINKS)) {
            throw new NoSuchFileException(sourceKey);
        }
        Path target = resolveForWrite(key);
        Path temp = target.resolveSibling(target.getFileName() + TEMP_MARK + UUID.randomUUID());
        try {
            // A hard link costs nothing and shares the bytes; across file systems fall back to a copy.
            Files.createLink(temp, source);
        } catch (IOException | UnsupportedOperationException e) {
            Files.copy(source, temp, StandardCopyOption.COPY_ATTRIBUTES, LinkOption.NOFOLLOW_LINKS);
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

    /** A location is a name, not an access: no check of what is there. */
    @Override
    public URI uri(String key) {
        return path(key).toUri();
    }

    private Path path(String key) {
        Path p = root.resolve(key).normalize();
        if (!p.startsWith(root)) {
            throw new IllegalArgumentException("object key outside the store");
        }
        return p;
    }

    /** The key's path, when no existing part of it below the root is a symbolic link. */
    private Path resolve(String key) {
        Path p = path(key);
        Path at = root;
        for (Path part : root.relativize(p)) {
            at = at.resolve(part);
            if (Files.isSymbolicLink(at)) {
                throw new LinkRefusedException(key);
            }
            if (!Files.exists(at, LinkOption.NOFOLLOW_LINKS)) {
                break;
            }
        }
        return p;
    }

    /**
     * The key's path with its parent directories made; checked before and again after they are made, so a link put in
     * place meanwhile is refused as well.
     */
    private Path resolveForWrite(String key) throws IOException {
        Path target = resolve(key);
        Files.createDirectories(target.getParent());
        return resolve(key);
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
