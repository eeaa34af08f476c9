/** swagger-ui-dist ships no types; the server uses only this file of it. */
declare module 'swagger-ui-dist/absolute-path.js' {
  /** The package's folder, where Swagger UI's script and stylesheet are. */
  const getAbsoluteFSPath: () => string;
  export default getAbsoluteFSPath;
}
