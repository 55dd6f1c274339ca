package io.batchyard.queue.compaction.store;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.DigestOutputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.UUID;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.CompletedMultipartUpload;
import software.amazon.awssdk.services.s3.model.CompletedPart;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Request;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Response;
import software.amazon.awssdk.services.s3.model.NoSuchBucketException;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * Objects in a bucket of an S3-compatible store, every key below {@code prefix}. A write is buffered in a local
 * temporary file and uploaded on {@link PendingObject#commit()}: one PUT, or a multipart upload above the threshold,
 * whose completion is the moment the object appears whole under its key (S3 never shows a partial object). commit
 * returns only after the store acknowledged the PUT or the multipart completion, so a merge records its range only
 * for an object that is fully written; a writer that dies before that leaves nothing under the key (an unfinished
 * multipart upload is aborted, or expires by the bucket's lifecycle rule). Every part carries its MD5
 * ({@code Content-MD5}): a body damaged on the way is refused by the store instead of being stored.
 *
 * <p>Errors of the store become {@link IOException}s, a missing key {@link NoSuchFileException}, like the filesystem
 * store's, so the merge tells bad data from a broken store the same way for both.
 */
public final class S3ObjectStore implements ObjectStore {

    private final S3Client s3;
    private final String bucket;
    private final String prefix;
    private final FileSystemObjectStore buffer;
    private final long partSize;

    /**
     * @param partSize objects larger than this are uploaded in parts of this size (at least 5 MiB, the S3 minimum)
     */
    public S3ObjectStore(S3Client s3, String bucket, String prefix, Path bufferDir, long partSize) {
        if (partSize < 5L * 1024 * 1024) {
            throw new IllegalArgumentException("the multipart part size must be at least 5 MiB");
        }
        this.s3 = s3;
        this.bucket = bucket;
        this.prefix = prefix == null ? "" : prefix;
        this.buffer = new FileSystemObjectStore(bufferDir);
        this.partSize = partSize;
    }

    @Override
    public PendingObject create(String key) throws IOException {
        // the buffer is a pending object of a local file store: complete on its commit, removed when abandoned
        String name = UUID.randomUUID() + ".part";
        PendingObject file = buffer.create(name);
        return new PendingObject() {
            @Override
            public OutputStream stream() {
                return file.stream();
            }

            @Override
            public long commit() throws IOException {
                try {
                    long size = file.commit();
                    upload(key, buffer.root().resolve(name), size);
                    return size;
                } finally {
                    buffer.delete(name);
                }
            }

            @Override
            public void close() {
                file.close();
            }
        };
    }

    private void upload(String key, Path file, long size) throws IOException {
        try {
            if (size <= partSize) {
                String md5 = md5(file, 0, size);
                s3.putObject(b -> b.bucket(bucket).key(prefix + key).contentLength(size).contentMD5(md5),
                        RequestBody.fromFile(file));
            } else {
                uploadInParts(prefix + key, file, size);
            }
        } catch (SdkException e) {
            throw failure("cannot upload " + key, e);
        }
    }

    private void uploadInParts(String fullKey, Path file, long size) throws IOException {
        String uploadId = s3.createMultipartUpload(b -> b.bucket(bucket).key(fullKey)).uploadId();
        try {
            List<CompletedPart> parts = new ArrayList<>();
            for (long offset = 0; offset < size; offset += partSize) {
                long length = Math.min(partSize, size - offset);
                int number = parts.size() + 1;
                long from = offset;
                String md5 = md5(file, from, length);
                String etag = s3.uploadPart(b -> b.bucket(bucket).key(fullKey).uploadId(uploadId).partNumber(number)
                                .contentLength(length).contentMD5(md5),
                        RequestBody.fromContentProvider(() -> slice(file, from, length), length,
                                "application/octet-stream")).eTag();
                parts.add(CompletedPart.builder().partNumber(number).eTag(etag).build());
            }
            s3.completeMultipartUpload(b -> b.bucket(bucket).key(fullKey).uploadId(uploadId)
                    .multipartUpload(CompletedMultipartUpload.builder().parts(parts).build()));
        } catch (IOException | RuntimeException e) {
            try {
                s3.abortMultipartUpload(b -> b.bucket(bucket).key(fullKey).uploadId(uploadId));
            } catch (SdkException ignored) {
                // the upload is invisible either way; the bucket's lifecycle rule removes its parts
            }
            throw e;
        }
    }

    private static InputStream slice(Path file, long offset, long length) {
        try {
            FileChannel c = FileChannel.open(file, StandardOpenOption.READ);
            c.position(offset);
            return new java.io.FilterInputStream(Channels.newInputStream(c)) {
                private long left = length;

                @Override
                public int read() throws IOException {
                    if (left <= 0) {
                        return -1;
                    }
                    int b = super.read();
                    if (b >= 0) {
                        left--;
                    }
                    return b;
                }

                @Override
                public int read(byte[] buf, int off, int len) throws IOException {
                    if (left <= 0) {
                        return -1;
                    }
                    int n = super.read(buf, off, (int) Math.min(len, left));
                    if (n > 0) {
                        left -= n;
                    }
                    return n;
                }
            };
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static String md5(Path file, long offset, long length) throws IOException {
        try (InputStream in = slice(file, offset, length);
             DigestOutputStream digest = new DigestOutputStream(OutputStream.nullOutputStream(),
                     MessageDigest.getInstance("MD5"))) {
            in.transferTo(digest);
            return Base64.getEncoder().encodeToString(digest.getMessageDigest().digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("MD5 is a mandatory JDK algorithm", e);
        }
    }

    @Override
    public InputStream open(String key) throws IOException {
        try {
            return s3.getObject(b -> b.bucket(bucket).key(prefix + key));
        } catch (SdkException e) {
            throw failure("cannot read " + key, e);
        }
    }

    @Override
    public boolean exists(String key) {
        try {
            s3.headObject(b -> b.bucket(bucket).key(prefix + key));
            return true;
        } catch (SdkException e) {
            if (missingKey(e)) {
                return false;
            }
            throw new java.io.UncheckedIOException(failure("cannot look up " + key, e));
        }
    }

    @Override
    public long size(String key) throws IOException {
        try {
            return s3.headObject(b -> b.bucket(bucket).key(prefix + key)).contentLength();
        } catch (SdkException e) {
            throw failure("cannot look up " + key, e);
        }
    }

    @Override
    public List<String> list(String folder) throws IOException {
        String dir = folder.endsWith("/") ? folder : folder + "/";
        List<String> keys = new ArrayList<>();
        try {
            String token = null;
            do {
                ListObjectsV2Request.Builder request = ListObjectsV2Request.builder().bucket(bucket).prefix(prefix + dir)
                        .delimiter("/");
                if (token != null) {
                    request.continuationToken(token);
                }
                ListObjectsV2Response page = s3.listObjectsV2(request.build());
                for (S3Object o : page.contents()) {
                    keys.add(o.key().substring(prefix.length()));
                }
                token = Boolean.TRUE.equals(page.isTruncated()) ? page.nextContinuationToken() : null;
            } while (token != null);
        } catch (SdkException e) {
            throw failure("cannot list " + folder, e);
        }
        keys.sort(null);
        return keys;
    }

    @Override
    public void delete(String key) throws IOException {
        try {
            s3.deleteObject(b -> b.bucket(bucket).key(prefix + key));
        } catch (SdkException e) {
            throw failure("cannot delete " + key, e);
        }
    }

    /** A server-side copy: the bytes never pass through this service. */
    @Override
    public void copy(String sourceKey, String key) throws IOException {
        try {
            s3.copyObject(b -> b.sourceBucket(bucket).sourceKey(prefix + sourceKey).destinationBucket(bucket)
                    .destinationKey(prefix + key));
        } catch (SdkException e) {
            throw failure("cannot copy " + sourceKey + " to " + key, e);
        }
    }

    @Override
    public String checkKey(String key) {
        return ObjectStore.checkRelativeKey(key);
    }

    @Override
    public URI uri(String key) {
        return URI.create("s3://" + bucket + "/" + prefix + key);
    }

    @Override
    public String toString() {
        return "S3 store s3://" + bucket + "/" + prefix;
    }

    /** A missing key (a HEAD has no error code, only 404); a missing bucket is a broken store, not a missing key. */
    private static boolean missingKey(SdkException e) {
        if (e instanceof NoSuchKeyException) {
            return true;
        }
        return e instanceof S3Exception s && s.statusCode() == 404 && !(e instanceof NoSuchBucketException)
                && (s.awsErrorDetails() == null || !"NoSuchBucket".equals(s.awsErrorDetails().errorCode()));
    }

    /** A missing key is {@link NoSuchFileException} (as in the filesystem store); anything else an I/O failure. */
    private static IOException failure(String what, SdkException e) {
        if (missingKey(e)) {
            NoSuchFileException missing = new NoSuchFileException(what);
            missing.initCause(e);
            return missing;
        }
        return new IOException(what + ": " + e.getMessage(), e);
    }
}
