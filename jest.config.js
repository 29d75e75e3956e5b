/** Jest for the app (src/) and the contract; the server has its own runner (scripts/test-server.ts). */
module.exports = {
  testEnvironment: 'jsdom',
  roots: ['<rootDir>/src', '<rootDir>/contract'],
  testMatch: ['**/__tests__/**/*.test.[jt]s?(x)'],
  setupFiles: ['<rootDir>/jest/setup-env.js'],
  setupFilesAfterEnv: ['<rootDir>/jest/setup-after-env.js'],
  transform: { '^.+\\.(mjs|cjs|[jt]sx?)$': 'babel-jest' },
  // Taro and NutUI ship ESM, so node_modules is transformed too, except Jest's own machinery, which
  // Babel cannot parse (#private methods) and never needs.
  transformIgnorePatterns: [
    '/node_modules/(?:jest-[^/]+|@jest|babel-jest|expect|pretty-format|jsdom|@babel|core-js[^/]*|react|react-dom|scheduler)/',
  ],
  moduleNameMapper: {
    '^@/(.*)$': '<rootDir>/src/$1',
    '^@contract/(.*)$': '<rootDir>/contract/$1',
    '\\.(css|scss|sass|less)$': '<rootDir>/jest/style-stub.js',
    '\\.(png|jpe?g|gif|svg)$': '<rootDir>/jest/file-stub.js',
  },
  clearMocks: true,
}
