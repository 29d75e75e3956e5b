import { readdirSync } from 'node:fs'
import js from '@eslint/js'
import tseslint from 'typescript-eslint'
import reactHooks from 'eslint-plugin-react-hooks'
import importX from 'eslint-plugin-import-x'
import globals from 'globals'
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript'

const features = readdirSync(new URL('./src/features', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)

// The server's layers (server/src/domain/README.md): routes -> domain -> infrastructure. Each domain
// folder is one room; another room reaches it only through its index.ts.
const SERVER_DOMAIN = new URL('./server/src/domain', import.meta.url)
const serverRooms = readdirSync(SERVER_DOMAIN, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)
const serverDomainFiles = readdirSync(SERVER_DOMAIN, { withFileTypes: true })
  .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
  .map((entry) => `./${entry.name}`)
const SERVER_INFRASTRUCTURE = [
  'crypto',
  'db',
  'dicom',
  'http',
  'images',
  'jobs',
  'providers',
  'realtime',
  'storage',
].map((name) => `./server/src/${name}`)
const ROOM_MESSAGE = "a domain folder reaches another only through that folder's index.ts"
const SERVER_ZONES = [
  {
    target: SERVER_INFRASTRUCTURE,
    from: ['./server/src/domain', './server/src/routes', './server/src/plugins'],
    message:
      'infrastructure (crypto, db, dicom, http, images, jobs, providers, realtime, storage) imports no domain module or route',
  },
  {
    target: './server/src/domain',
    from: ['./server/src/routes', './server/src/plugins'],
    message: 'the domain never imports routes or plugins',
  },
  ...serverRooms.map((room) => ({
    target: `./server/src/domain/${room}`,
    from: './server/src/domain',
    except: [
      `./${room}`,
      ...serverDomainFiles,
      ...serverRooms.filter((other) => other !== room).map((other) => `./${other}/index.ts`),
    ],
    message: ROOM_MESSAGE,
  })),
  {
    target: './server/src/domain/*.ts',
    from: './server/src/domain',
    except: [...serverDomainFiles, ...serverRooms.map((room) => `./${room}/index.ts`)],
    message: ROOM_MESSAGE,
  },
]

const PAGE_PATH_MESSAGE =
  "open pages by name: navigate('login'), routeUrl('login', {...}) from '@/services/navigate'"
const PAGE_PATH = '/(^|\\/)(pages|uview-ui|components\\/bar-code)\\//'
const PAGE_PATH_RULES = [
  {
    selector: `:not(ImportDeclaration, ImportExpression) > Literal[value=${PAGE_PATH}]`,
    message: PAGE_PATH_MESSAGE,
  },
  { selector: `TemplateElement[value.raw=${PAGE_PATH}]`, message: PAGE_PATH_MESSAGE },
]

// Platform probes belong in src/platform (its README): the build target, the user agent, the
// window and capsule geometry.
const PLATFORM_PROBE_MESSAGE =
  'platform probes live in src/platform (device.ts, runtime.ts, environment.ts)'
const PLATFORM_PROBE_RULES = [
  "MemberExpression[object.object.name='process'][object.property.name='env'][property.name='TARO_ENV']",
  "MemberExpression[object.name='navigator'][property.name='userAgent']",
  "MemberExpression[object.name='Taro'][property.name=/^(getWindowInfo|getSystemInfo|getSystemInfoSync|getDeviceInfo|getMenuButtonBoundingClientRect)$/]",
].map((selector) => ({ selector, message: PLATFORM_PROBE_MESSAGE }))

const USE_ROUTER = {
  name: '@tarojs/taro',
  importNames: ['useRouter'],
  message: "read page parameters with useParams() from '@/hooks/use-params'",
}

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'node_modules/**',
      '.temp/**',
      'data/**',
      'e2e/artifacts/**',
      'coverage/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx,js,mjs,cjs}'],
    plugins: { 'react-hooks': reactHooks, 'import-x': importX },
    languageOptions: {
      globals: {
        ...globals.browser,
        ...globals.node,
        ...globals.jest,
        definePageConfig: 'readonly',
        defineAppConfig: 'readonly',
      },
    },
    settings: {
      'import-x/resolver-next': [
        createTypeScriptImportResolver({
          project: ['tsconfig.json', 'server/tsconfig.json'],
          noWarnOnMultipleProjects: true,
        }),
      ],
    },
    rules: {
      ...reactHooks.configs.recommended.rules,
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      'import-x/order': [
        'error',
        { groups: ['builtin', 'external', 'internal', 'parent', 'sibling', 'index'] },
      ],
      'import-x/no-duplicates': 'error',
    },
  },
  {
    files: ['**/*.{js,cjs}'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  // Dependency direction (docs/architecture.md): contract imports nothing of ours; app and server
  // meet only in contract; inside src, utils/platform -> services/stores/components -> features ->
  // pages, and a feature never imports another feature (weapp subpackages cannot share JS either).
  // src/hooks sits between: above services/stores, below components, features and pages.
  {
    files: ['src/**', 'server/**', 'contract/**'],
    rules: {
      'import-x/no-cycle': 'error',
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            {
              target: './contract',
              from: ['./src', './server'],
              message: 'contract/ imports nothing of ours',
            },
            {
              target: './src',
              from: './server',
              message: 'the app reaches the server only over HTTP',
            },
            { target: './server', from: './src', message: 'the server never imports the app' },
            {
              target: ['./src/utils', './src/platform'],
              from: [
                './src/hooks',
                './src/services',
                './src/stores',
                './src/components',
                './src/features',
                './src/pages',
              ],
              message: 'utils and platform sit at the bottom',
            },
            {
              target: ['./src/services', './src/stores', './src/components'],
              from: ['./src/features', './src/pages'],
              message: 'shared layers never import features or pages',
            },
            {
              target: ['./src/services', './src/stores'],
              from: './src/hooks',
              message: 'services and stores sit below the shared hooks',
            },
            {
              target: './src/hooks',
              from: ['./src/components', './src/features', './src/pages'],
              message: 'shared hooks (src/hooks) import no component, feature or page',
            },
            {
              target: './src/features',
              from: './src/pages',
              message: 'features never import pages',
            },
            ...features.map((name) => ({
              target: `./src/features/${name}`,
              from: './src/features',
              except: [`./${name}`],
              message: 'a feature never imports another feature',
            })),
            ...SERVER_ZONES,
          ],
        },
      ],
    },
  },
  // Typed navigation (src/services/navigate.ts): pages are opened by route name, so a spec path is
  // written only in routes.ts and the navigation module. Import sources are not paths of pages.
  {
    files: ['src/**/*.{ts,tsx}'],
    ignores: ['src/routes.ts', 'src/services/navigate.ts', 'src/**/__tests__/**'],
    rules: { 'no-restricted-syntax': ['error', ...PAGE_PATH_RULES, ...PLATFORM_PROBE_RULES] },
  },
  // Page parameters are read with useParams() (src/hooks/use-params.ts), decoded once: Taro hands
  // them over percent-encoded, and a page that reads useRouter().params shows %E5… to the person.
  {
    files: ['src/**/*.{ts,tsx}'],
    ignores: ['src/hooks/**', 'src/components/under-construction/**'],
    rules: { 'no-restricted-imports': ['error', { paths: [USE_ROUTER] }] },
  },
  // Pages stay thin: they compose features and open pages by name; every call to the server is a
  // feature's (a page's tests may still fake the services underneath).
  {
    files: ['src/pages/**/*.{ts,tsx}'],
    ignores: ['src/pages/**/__tests__/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [USE_ROUTER],
          patterns: [
            {
              regex: '(^@/|/)services/(?!navigate$)',
              message:
                "pages call no service: move the call into a feature's hook (services/navigate is fine)",
            },
          ],
        },
      ],
    },
  },
  // src/platform is where the probes live; page paths stay forbidden there too.
  {
    files: ['src/platform/**/*.{ts,tsx}'],
    ignores: ['src/**/__tests__/**'],
    rules: { 'no-restricted-syntax': ['error', ...PAGE_PATH_RULES] },
  },
)
