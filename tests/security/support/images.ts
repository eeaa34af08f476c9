// Moved to tests/support/ (issue 10): this re-export keeps older imports compiling; remove it once
// nothing imports tests/support/images through here.
export * from '../../support/images';
