; scalar integer converts with a shift, on the SPU: per index point i,
; v = (s * (i + 1)) ^ t and n = ((i * 7) & 127) - 64; out0 = convert_uint32
; to u8 of v / 2^n (RHNE, saturated to 0..255; a negative n multiplies),
; out1 = convert_int32 to i16 of v / 2^n (RZ, saturated), both broadcast
target triple = "tpc"

define void @main(i32 %s, i32 %t) {
entry:
  %off = call <5 x i32> @llvm.tpc.get.index.space.offset()
  %size = call <5 x i32> @llvm.tpc.get.index.space.size()
  %first = extractelement <5 x i32> %off, i32 0
  %n = extractelement <5 x i32> %size, i32 0
  %last = add i32 %first, %n
  br label %body

body:
  %i = phi i32 [ %first, %entry ], [ %next, %body ]
  %x = mul i32 %i, 64
  %c = insertelement <5 x i32> zeroinitializer, i32 %x, i32 0
  %i1 = add i32 %i, 1
  %m = mul i32 %s, %i1
  %v = xor i32 %m, %t
  %i7 = mul i32 %i, 7
  %n6 = and i32 %i7, 127
  %sh = sub i32 %n6, 64
  %u8 = call i8 @llvm.tpc.convert.uint.i8.i32.i32.i1(i32 %v, i32 %sh, i32 0, i8 undef, i1 true, i1 false)
  %s16 = call i16 @llvm.tpc.convert.int.i16.i32.i32.i1(i32 %v, i32 %sh, i32 589824, i16 undef, i1 true, i1 false)
  %w8 = zext i8 %u8 to i32
  %w16 = sext i16 %s16 to i32
  %av = insertelement <64 x i32> undef, i32 %w8, i32 0
  %a = shufflevector <64 x i32> %av, <64 x i32> undef, <64 x i32> zeroinitializer
  %bv = insertelement <64 x i32> undef, i32 %w16, i32 0
  %b = shufflevector <64 x i32> %bv, <64 x i32> undef, <64 x i32> zeroinitializer
  call void @llvm.tpc.st.tnsr.v64i32(<5 x i32> %c, i8 0, <64 x i32> %a, i32 0, i1 true, i1 false)
  call void @llvm.tpc.st.tnsr.v64i32(<5 x i32> %c, i8 1, <64 x i32> %b, i32 0, i1 true, i1 false)
  %next = add i32 %i, 1
  %more = icmp slt i32 %next, %last
  br i1 %more, label %body, label %exit

exit:
  ret void
}

declare <5 x i32> @llvm.tpc.get.index.space.offset()
declare <5 x i32> @llvm.tpc.get.index.space.size()
declare i8 @llvm.tpc.convert.uint.i8.i32.i32.i1(i32, i32, i32, i8, i1, i1)
declare i16 @llvm.tpc.convert.int.i16.i32.i32.i1(i32, i32, i32, i16, i1, i1)
declare void @llvm.tpc.st.tnsr.v64i32(<5 x i32>, i8, <64 x i32>, i32, i1, i1)
