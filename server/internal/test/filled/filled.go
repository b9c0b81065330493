// Package filled builds values whose every field is set, for the tests
// that check a conversion carries every field: a field it forgot shows up
// empty on the other side.
package filled

import "reflect"

// maxDepth bounds the recursion through pointers, slices and maps, so a
// self-referencing type ends.
const maxDepth = 4

// Fill sets every settable field under v to something non-zero: strings
// "x", numbers 3 (0.5 for floats), true, one element per slice and map,
// and bytes the JSON string "x" (bytes are JSON somewhere: json.RawMessage).
func Fill(v reflect.Value) { fill(v, 0) }

func fill(v reflect.Value, depth int) {
	switch v.Kind() {
	case reflect.String:
		v.SetString("x")
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Int, reflect.Int64, reflect.Int32:
		v.SetInt(3)
	case reflect.Float64:
		v.SetFloat(0.5)
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			if v.Field(i).CanSet() {
				fill(v.Field(i), depth)
			}
		}
	case reflect.Pointer:
		if depth < maxDepth {
			v.Set(reflect.New(v.Type().Elem()))
			fill(v.Elem(), depth+1)
		}
	case reflect.Slice:
		if v.Type().Elem().Kind() == reflect.Uint8 {
			v.SetBytes([]byte(`"x"`))
		} else if depth < maxDepth {
			v.Set(reflect.MakeSlice(v.Type(), 1, 1))
			fill(v.Index(0), depth+1)
		}
	case reflect.Map:
		if depth < maxDepth {
			v.Set(reflect.MakeMap(v.Type()))
			k, e := reflect.New(v.Type().Key()).Elem(), reflect.New(v.Type().Elem()).Elem()
			fill(k, depth+1)
			fill(e, depth+1)
			v.SetMapIndex(k, e)
		}
	}
}
