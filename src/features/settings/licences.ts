/**
 * The main open-source libraries the app ships, with their licences (MIT and Apache-2.0 both ask
 * that the notice travel with the product). Versions are the ones package.json pins.
 */
export interface Licence {
  name: string
  version: string
  licence: string
  url: string
}

export const LICENCES: readonly Licence[] = [
  { name: 'Taro', version: '4.2.1', licence: 'MIT', url: 'https://github.com/NervJS/taro' },
  { name: 'React', version: '18.3', licence: 'MIT', url: 'https://github.com/facebook/react' },
  {
    name: 'NutUI React',
    version: '3.0.20',
    licence: 'MIT',
    url: 'https://github.com/jdf2e/nutui-react',
  },
  { name: 'zustand', version: '5', licence: 'MIT', url: 'https://github.com/pmndrs/zustand' },
  { name: 'zod', version: '4', licence: 'MIT', url: 'https://github.com/colinhacks/zod' },
  { name: 'jsQR', version: '1.4.0', licence: 'Apache-2.0', url: 'https://github.com/cozmo/jsQR' },
]
