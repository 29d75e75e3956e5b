/**
 * @jest-config-loader esbuild-register
 *
 * Jest for the app (src/) and the contract; the server has its own runner (scripts/test-server.ts).
 *
 * Node 20 cannot load TypeScript by itself (type stripping arrived in Node 22.18), so the pragma
 * above has Jest compile this file with esbuild-register (a dev dependency; esbuild comes with tsx).
 * `npx jest [paths]` and `npm run test:unit` both work.
 */
import { availableParallelism } from 'node:os'
import type { Config } from 'jest'

// Jest workers inherit the parent's environment: the app's dates are shown in China Standard Time.
process.env.TZ = 'Asia/Shanghai'

const config: Config = {
  testEnvironment: 'jsdom',
  testEnvironmentOptions: {
    url: 'http://localhost/',
    customExportConditions: ['node', 'node-addons'],
  },
  // Taro's compile-time switches, as its own test preset (@tarojs/test-utils-react) sets them.
  globals: {
    ENABLE_INNER_HTML: true,
    ENABLE_ADJACENT_HTML: true,
    ENABLE_SIZE_APIS: true,
    DEPRECATED_ADAPTER_COMPONENT: false,
    ENABLE_TEMPLATE_CONTENT: true,
    ENABLE_MUTATION_OBSERVER: true,
    ENABLE_CLONE_NODE: true,
    ENABLE_CONTAINS: true,
    __TARO_FRAMEWORK__: 'react',
  },
  roots: ['<rootDir>/src', '<rootDir>/contract'],
  testMatch: ['**/__tests__/**/*.test.[jt]s?(x)'],
  setupFiles: ['<rootDir>/jest/setup-env.js'],
  setupFilesAfterEnv: ['<rootDir>/jest/setup-after-env.js'],
  // A page rendered through Taro's router (jest/taro-render.tsx) takes a second or two on a cold cache.
  testTimeout: 15000,
  // Jest's default is one worker fewer than the cores: on a 2-core machine that ran every file in
  // Jest's own process, one core idle. Test files share nothing (each gets its own jsdom), so a
  // worker per core, at least two.
  maxWorkers: Math.max(2, availableParallelism()),
  transform: { '^.+\\.(mjs|cjs|[jt]sx?)$': 'babel-jest' },
  // Taro and NutUI ship ESM, so node_modules is transformed too, except Jest's own machinery, which
  // Babel cannot parse (#private methods) and never needs.
  transformIgnorePatterns: [
    '/node_modules/(?:jest-[^/]+|@jest|babel-jest|expect|pretty-format|jsdom|@babel|core-js[^/]*|react|react-dom|scheduler)/',
  ],
  moduleNameMapper: {
    // What Taro's H5 build resolves these to.
    '^@tarojs/taro$': '<rootDir>/jest/taro-h5.js',
    '^@tarojs/components$': '@tarojs/components/lib/react/index',
    '^@/(.*)$': '<rootDir>/src/$1',
    '^@contract/(.*)$': '<rootDir>/contract/$1',
    '\\.(css|scss|sass|less)$': '<rootDir>/jest/style-stub.js',
    '\\.(png|jpe?g|gif|svg)$': '<rootDir>/jest/file-stub.js',
  },
  clearMocks: true,
}

export default config
