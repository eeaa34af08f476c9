/**
 * Where uploaded images live in this site's address space: the upload routes, the update routes
 * that check an image is ours, and the disk guard that refuses uploads when the disk is full.
 */
export const OBJECT_PATH_PREFIX = '/api/objects/uploads/';
