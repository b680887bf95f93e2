/** Compressed node data as Curator's GzipCompressionProvider writes it, read with a bound on the output. */
export {
  compressLikeCurator, decompressLikeCurator, gunzipDecoder, DEFAULT_MAX_DECOMPRESSED_BYTES, type DecompressOptions,
} from './gzip.js';
