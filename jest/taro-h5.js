// What `@tarojs/taro` is in the H5 build: the H5 API with default and named exports merged, plus the
// React page hooks that Taro's framework plugin attaches at build time (its api-loader).
// The exports object is filled in place, never replaced: @tarojs/taro-h5 -> @tarojs/router -> this
// module is a require cycle, and the router keeps the object it saw first (its tab bar calls
// `initTabBarApis` on it later).
const taro = require('@tarojs/taro-h5')
const hooks = require('@tarojs/plugin-framework-react/dist/runtime')

const api = module.exports
Object.assign(api, taro.default ?? {}, taro)
for (const [name, value] of Object.entries(hooks)) {
  if (name.startsWith('use')) api[name] = value
}
api.default = api
